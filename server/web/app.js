// The browser view over the table server's API (server/README.md): the
// table (status at the head, the state at any event when scrubbing), the
// timeline (every event, grouped at rounds and turns, live over the
// stream), explanations, legal acts as forms, what-if and diff. Every text
// from the server is set as textContent (never parsed as HTML).
'use strict';

const params = new URLSearchParams(location.hash.slice(1));
const S = { session: params.get('session') || '', token: params.get('token') || '',
            branch: params.get('branch') || 'main', me: null, events: [], head: 0,
            cursor: 0, stream: null };

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k.startsWith('on')) e[k] = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}
const $ = (id) => document.getElementById(id);
const base = () => `/api/sessions/${encodeURIComponent(S.session)}`;
const branchBase = () => `${base()}/branches/${encodeURIComponent(S.branch)}`;

async function api(path, options = {}) {
  const headers = Object.assign({ Authorization: `Bearer ${S.token}` }, options.headers || {});
  const r = await fetch(path, Object.assign({}, options, { headers }));
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error ? `${r.status} ${body.error.message}` : `HTTP ${r.status}`);
  return body;
}

function bar(current, max) {
  const pct = max > 0 ? Math.max(0, Math.min(100, (100 * current) / max)) : 0;
  return el('span', { class: 'bar' + (pct < 34 ? ' low' : '') }, el('div', { style: `width:${pct}%` }));
}

// The table at the head, from status (vitals, budgets, conditions with ends).
function drawStatus(st) {
  $('table-at').textContent = `round ${st.round}` + (st.active ? `, ${st.active}'s turn` : '') +
      (st.may_act && st.may_act.length ? `, may act: ${st.may_act.join(', ')}` : '') +
      (st.ended ? ` — ended: ${st.ended}` : '') + ` (head #${st.seq})`;
  const t = $('table');
  t.replaceChildren();
  for (const c of st.combatants) {
    const row = el('div', { class: 'combatant' + (c.id === st.active ? ' active' : '') },
                   el('strong', {}, c.name), ` (${c.id}, ${c.side}) at ${JSON.stringify(c.at)}`);
    for (const v of c.vitals) {
      row.append(el('div', {}, `${v.resource} ${v.current}${v.max != null ? '/' + v.max : ''} `,
                    v.max != null ? bar(v.current, v.max) : ''));
    }
    const budgets = Object.entries(c.budgets || {}).map(([k, v]) => `${k} ${v}`).join(', ');
    if (budgets) row.append(el('div', { class: 'small' }, `left: ${budgets}`));
    for (const cond of c.conditions) {
      row.append(el('div', { class: 'small' }, `${cond.name}${cond.level ? ' ' + cond.level : ''}: ${cond.ends}`));
    }
    t.append(row);
  }
  for (const w of st.windows || []) {
    t.append(el('div', { class: 'small' }, `window ${w.id} (${w.kind}) on #${w.trigger}: may answer ${w.may_answer.join(', ')}`));
  }
}

// The table at any event, from the state's combatant view.
function drawState(at, state) {
  $('table-at').textContent = `after event #${at}: round ${state.round}` + (state.active ? `, ${state.active}'s turn` : '');
  const t = $('table');
  t.replaceChildren();
  for (const c of state.combatant_view) {
    const row = el('div', { class: 'combatant' + (c.id === state.active ? ' active' : '') },
                   el('strong', {}, c.name), ` (${c.id}, ${c.side})`);
    for (const g of c.game) {
      row.append(el('div', {}, `${g.key} ${g.value}${g.max != null ? '/' + g.max : ''} `,
                    g.max != null ? bar(g.value, g.max) : ''));
    }
    t.append(row);
  }
}

// A player's (or the GM's) legal acts as forms that submit commands.
async function drawActs() {
  const acts = $('acts');
  acts.replaceChildren();
  if (S.branch !== 'main' && S.me.role !== 'gm') return;
  const mine = S.me.role === 'gm' ? [] : S.me.plays;
  for (const c of mine) {
    const st = await api(`${branchBase()}/status?for=${encodeURIComponent(c)}`);
    acts.append(el('h2', {}, `${c}: legal now`));
    if (!st.legal.length) acts.append(el('div', { class: 'small' }, st.note || 'nothing now'));
    for (const a of st.legal) acts.append(commandForm(`${a.verb} — ${a.doc}${a.needs ? ' (needs ' + a.needs + ')' : ''}`, a.command));
  }
  if (S.me.role === 'gm') acts.append(commandForm('GM: any command (a ruling, a monster\'s act)', '{"actor": "", "action": ""}'));
}

function commandForm(title, command) {
  const text = el('textarea', { rows: 3 });
  // A legal act's command is a JSON object (status.h); the GM's blank is text.
  const cmd = typeof command === 'string' ? JSON.parse(command) : Object.assign({}, command || {});
  cmd.id = cmd.id || `web-${Date.now().toString(36)}`;
  text.value = JSON.stringify(cmd);
  const out = el('div', { class: 'small' });
  const send = el('button', {
    onclick: async () => {
      try {
        const body = JSON.parse(text.value);
        if (!body.id) body.id = `web-${Date.now().toString(36)}`;
        const r = await api(`${branchBase()}/commands?expected_seq=${S.head}`, {
          method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
        out.textContent = `applied: events #${r.events[0].seq}..#${r.head.seq}`;
      } catch (e) { out.textContent = e.message; }
    } }, 'submit');
  return el('div', { class: 'combatant' }, el('div', {}, title), text, send, out);
}

function groupOf(ev) {
  const t = ev.event.body_type || '';
  return /Round/.test(t) ? 'round' : /Turn/.test(t) ? 'turn' : '';
}

function drawTimeline() {
  const tl = $('timeline');
  tl.replaceChildren();
  for (const ev of S.events) {
    const g = groupOf(ev);
    if (g) tl.append(el('div', { class: 'group' }, ev.line.replace(/^#\d+\s+/, '')));
    tl.append(el('div', { class: 'ev' + (ev.seq === S.cursor ? ' cursor' : '') + (ev.seq > S.cursor ? ' future' : ''),
                          'data-seq': ev.seq, onclick: () => select(ev.seq, true) },
                 `${ev.line}  (${ev.event.author}, ${ev.event.role})`));
  }
  $('scrub').max = String(Math.max(1, S.head));
  $('scrub').value = String(S.cursor);
  $('scrub-at').textContent = `#${S.cursor} of ${S.head}`;
}

async function select(seq, explain) {
  S.cursor = seq;
  drawTimeline();
  try {
    if (seq === S.head) drawStatus(await api(`${branchBase()}/status`));
    else { const r = await api(`${branchBase()}/state?at=${seq}`); drawState(r.seq, r.state); }
    if (explain) $('explain').textContent = (await api(`${branchBase()}/explain?event=${seq}`)).text;
  } catch (e) { $('explain').textContent = e.message; }
}

async function loadEvents() {
  S.events = [];
  let from = 1;
  for (;;) {
    const page = await api(`${branchBase()}/events?from=${from}&limit=1000`);
    S.events.push(...page.events);
    S.head = page.head.seq;
    if (page.next == null) break;
    from = page.next;
  }
}

async function integrity() {
  const [heads, v] = await Promise.all([api(`${base()}/heads`), api(`${base()}/verify?branch=${encodeURIComponent(S.branch)}`)]);
  const h = heads.heads.find((x) => x.branch === S.branch);
  const span = $('integrity');
  span.replaceChildren(el('span', { class: v.ok ? 'ok' : 'bad' }, v.ok ? 'verified' : `MISMATCH: ${v.mismatch.summary}`),
                       ' head ', el('code', {}, h ? `#${h.seq} ${h.hash.slice(0, 16)}…` : ''));
}

function listen() {
  if (S.stream) S.stream.close();
  const url = `${branchBase()}/stream?token=${encodeURIComponent(S.token)}&last_event_id=${S.head}`;
  S.stream = new EventSource(url);
  S.stream.addEventListener('event', async (m) => {
    const item = JSON.parse(m.data);
    if (S.events.length && item.seq <= S.events[S.events.length - 1].seq) return;
    const follow = S.cursor === S.head;
    S.events.push(item);
    S.head = item.seq;
    if (follow) S.cursor = S.head;
    drawTimeline();
    if (follow) { await select(S.head, false); drawActs().catch(() => {}); integrity().catch(() => {}); }
  });
}

async function openBranch(branch) {
  S.branch = branch;
  await loadEvents();
  S.cursor = S.head;
  drawTimeline();
  await select(S.head, false);
  await drawActs();
  await integrity();
  listen();
}

async function start() {
  if (!S.session || !S.token) { $('login').hidden = false; return; }
  $('app').hidden = false;
  try {
    S.me = await api(`${base()}/me`);
    $('who').textContent = `${S.session} — ${S.me.name} (${S.me.role}${S.me.plays.length ? ': ' + S.me.plays.join(', ') : ''})`;
    const tree = await api(`${base()}/branches`);
    const sel = $('branch');
    sel.replaceChildren(...tree.branches.map((b) => el('option', { value: b.branch }, `${'  '.repeat(b.depth)}${b.branch}`)));
    sel.value = S.branch;
    sel.onchange = () => openBranch(sel.value);
    $('whatif-form').hidden = S.me.role !== 'gm';
    await openBranch(S.branch);
  } catch (e) { $('explain').textContent = e.message; }
}

$('go').onclick = () => {
  location.hash = `session=${encodeURIComponent($('in-session').value)}&token=${encodeURIComponent($('in-token').value)}`;
  location.reload();
};
$('scrub').oninput = () => { S.cursor = Number($('scrub').value); drawTimeline(); };
$('scrub').onchange = () => select(Number($('scrub').value), false);
$('wi-go').onclick = async () => {
  const change = $('wi-change').value;
  const q = new URLSearchParams({ from: S.branch, name: $('wi-name').value, reason: $('wi-reason').value, change });
  if (change === 'none') q.set('at', S.cursor); else q.set('seq', S.cursor);
  if (change === 'die') { q.set('die', $('wi-die').value); q.set('value', $('wi-value').value); }
  try {
    const r = await api(`${base()}/whatif?${q}`, { method: 'POST' });
    $('diff').textContent = r.text;
    $('diff-a').value = S.branch;
    $('diff-b').value = r.branch;
    const tree = await api(`${base()}/branches`);
    $('branch').replaceChildren(...tree.branches.map((b) => el('option', { value: b.branch }, `${'  '.repeat(b.depth)}${b.branch}`)));
    $('branch').value = S.branch;
  } catch (e) { $('diff').textContent = e.message; }
};
$('diff-go').onclick = async () => {
  try {
    const q = new URLSearchParams({ a: $('diff-a').value, b: $('diff-b').value });
    $('diff').textContent = (await api(`${base()}/diff?${q}`)).text;
  } catch (e) { $('diff').textContent = e.message; }
};
start();
