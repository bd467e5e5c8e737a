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
  S.status = st;
  $('table-at').textContent = `${st.ruleset}: round ${st.round}` + (st.active ? `, ${st.active}'s turn` : '') +
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
      row.append(el('div', { class: 'small cond' }, `${cond.name}${cond.level ? ' ' + cond.level : ''}` +
                    `${cond.relative_to ? ' (vs ' + cond.relative_to + ')' : ''}: ${cond.ends}`));
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
    const full = (state.combatants || []).find((x) => x.spec && x.spec.id === c.id);
    for (const cond of (full && full.conditions) || []) {
      const x = cond.expiry || {};
      const ends = x.kind === 'Never' || !x.kind ? 'until removed'
          : `${x.kind}${x.actor ? ' of ' + x.actor : ''}${x.round ? ' (round ' + x.round + ')' : ''}`;
      row.append(el('div', { class: 'small cond' }, `${cond.name}${cond.level ? ' ' + cond.level : ''}` +
                    `${cond.relative_to ? ' (vs ' + cond.relative_to + ')' : ''}: ${ends}`));
    }
    t.append(row);
  }
}

// A player's (or the GM's) legal acts as forms that submit commands: one
// form per act the server lists (status?for=), its targets and weapons as
// choices, the rest of the command editable; the server decides.
async function drawActs() {
  const mine = (S.drawingActs = (S.drawingActs || 0) + 1);
  const acts = [];
  if (S.branch === 'main' || S.me.role === 'gm') {
    // The GM acts for whoever may act now (a monster, a player's stand-in).
    const now = S.status ? [S.status.active, ...(S.status.may_act || [])].filter(Boolean) : [];
    for (const c of S.me.role === 'gm' ? [...new Set(now)] : S.me.plays) {
      const st = await api(`${branchBase()}/status?for=${encodeURIComponent(c)}`);
      acts.push(el('h2', {}, `${c}: legal now`));
      if (!st.legal || !st.legal.length) acts.push(el('div', { class: 'small' }, st.note || 'nothing now'));
      for (const a of st.legal || []) acts.push(actForm(a));
    }
    if (S.me.role === 'gm') {
      acts.push(el('h2', {}, 'GM'));
      acts.push(actForm({ verb: 'command', doc: 'any command (a ruling, a monster\'s act)', targets: [], weapons: [],
                          needs: '', command: { actor: S.status ? S.status.active : '', action: '' } }));
    }
  }
  // Only the latest drawing lands (a new head may start another meanwhile).
  if (mine === S.drawingActs) $('acts').replaceChildren(...acts);
}

function choice(cls, values, value) {
  const s = el('select', { class: cls }, ...values.map((v) => el('option', { value: v }, v)));
  if (value && values.includes(value)) s.value = value;
  return s;
}

function actForm(a) {
  const cmd = Object.assign({}, a.command || {});
  delete cmd.id;
  const text = el('textarea', { rows: 2, class: 'cmd' });
  text.value = JSON.stringify(cmd);
  const form = el('details', { class: 'act', 'data-verb': a.verb },
                  el('summary', {}, el('strong', {}, a.verb), ` — ${a.doc}`));
  // An open form stays open when a new head redraws the acts.
  S.openActs = S.openActs || new Set();
  form.open = S.openActs.has(a.verb);
  form.ontoggle = () => { if (form.open) S.openActs.add(a.verb); else S.openActs.delete(a.verb); };
  const sync = () => {
    try {
      const body = JSON.parse(text.value);
      if (tsel) body.targets = [tsel.value];
      if (wsel) body.weapon = wsel.value;
      text.value = JSON.stringify(body);
    } catch (e) { /* the text is the user's to fix */ }
  };
  let tsel = null, wsel = null;
  if (a.targets && a.targets.length && 'targets' in cmd) {
    tsel = choice('target', a.targets, (cmd.targets || [])[0]);
    tsel.onchange = sync;
    form.append(el('label', {}, 'target ', tsel));
  }
  if (a.weapons && a.weapons.length && 'weapon' in cmd) {
    wsel = choice('weapon', a.weapons, cmd.weapon);
    wsel.onchange = sync;
    form.append(el('label', {}, 'weapon ', wsel));
  }
  if (a.needs) form.append(el('div', { class: 'small needs' }, `needs: ${a.needs}`));
  // The outcome outlives the form (a new head redraws the acts).
  const out = $('act-result');
  const send = el('button', {
    class: 'submit',
    onclick: async () => {
      out.textContent = `${a.verb}: sending…`;
      try {
        const body = JSON.parse(text.value);
        body.id = `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
        const r = await api(`${branchBase()}/commands?expected_seq=${S.head}`, {
          method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
        out.textContent = `${a.verb} applied: events #${r.events[0].seq}..#${r.head.seq}`;
        await ingest(r.events);
      } catch (e) { out.textContent = `${a.verb} refused: ${e.message}`; }
    } }, 'submit');
  form.append(text, send);
  return form;
}

// Round and turn starts open a group; the rest of the log sits inside.
function changeType(ev) { return (ev.event.body && ev.event.body.change_type) || ''; }

function drawTimeline() {
  const tl = $('timeline');
  const keep = tl.scrollTop;
  tl.replaceChildren();
  let round = el('div', { class: 'round' }, el('div', { class: 'group' }, 'set-up'));
  let turn = round;
  tl.append(round);
  for (const ev of S.events) {
    const ct = changeType(ev);
    if (ct === 'RoundStarted') {
      round = el('div', { class: 'round' }, el('div', { class: 'group' }, ev.line.replace(/^#\d+\s+change\s+/, '').replace(/\s+\[.*$/, '')));
      turn = round;
      tl.append(round);
    } else if (ct === 'TurnStarted') {
      turn = el('div', { class: 'turn' }, el('div', { class: 'group' }, ev.line.replace(/^#\d+\s+change\s+/, '').replace(/\s+\[.*$/, '')));
      round.append(turn);
    }
    turn.append(el('div', { class: 'ev' + (ev.seq === S.cursor ? ' cursor' : '') + (ev.seq > S.cursor ? ' future' : '') +
                                   (ev.event.body_type === 'Declaration' ? ' decl' : ''),
                            'data-seq': ev.seq, title: `${ev.event.author} (${ev.event.role})`,
                            onclick: () => select(ev.seq, true) }, ev.line));
  }
  tl.scrollTop = keep;
  $('scrub').max = String(Math.max(1, S.head));
  $('scrub').value = String(S.cursor);
  $('scrub-at').textContent = `#${S.cursor} of ${S.head}`;
}

// New log items (from a submit's reply or the stream), each once. The
// timeline is drawn at once; the table, acts, verify and tree once per burst
// (a command's events arrive one by one on the stream).
async function ingest(items) {
  const last = S.events.length ? S.events[S.events.length - 1].seq : 0;
  const fresh = items.filter((i) => i.seq > last).sort((x, y) => x.seq - y.seq);
  if (!fresh.length) return;
  const follow = S.cursor === S.head;
  S.events.push(...fresh);
  S.head = S.events[S.events.length - 1].seq;
  if (follow) S.cursor = S.head;
  drawTimeline();
  clearTimeout(S.refreshing);
  S.refreshing = setTimeout(() => {
    if (S.cursor === S.head) select(S.head, false).catch(() => {});
    drawActs().catch(() => {});
    integrity().catch(() => {});
    drawTree().catch(() => {});
  }, 150);
}

async function select(seq, explain) {
  S.cursor = seq;
  const mine = (S.selecting = (S.selecting || 0) + 1);
  drawTimeline();
  const ev = document.querySelector(`#timeline .ev[data-seq="${seq}"]`);
  if (ev) ev.scrollIntoView({ block: 'nearest' });
  try {
    if (seq === S.head) { const st = await api(`${branchBase()}/status`); if (mine === S.selecting) drawStatus(st); }
    else { const r = await api(`${branchBase()}/state?at=${seq}`); if (mine === S.selecting) drawState(r.seq, r.state); }
    if (explain) {
      const text = (await api(`${branchBase()}/explain?event=${seq}`)).text;
      if (mine === S.selecting) $('explain').textContent = text;
    }
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
  S.stream.addEventListener('event', (m) => { ingest([JSON.parse(m.data)]).catch(() => {}); });
  S.stream.onopen = () => { $('live').textContent = 'live'; $('live').className = 'ok'; };
  S.stream.onerror = () => { $('live').textContent = 'reconnecting'; $('live').className = 'bad'; };
}

// The branch tree: each branch under its parent, its fork point, who, why
// and its head; click one to open it.
async function drawTree() {
  const tree = await api(`${base()}/branches`);
  const sel = $('branch');
  sel.replaceChildren(...tree.branches.map((b) => el('option', { value: b.branch }, `${'\u00a0\u00a0'.repeat(b.depth)}${b.branch}`)));
  sel.value = S.branch;
  $('tree').replaceChildren(...tree.branches.map((b) => el('div', {
    class: 'branch' + (b.branch === S.branch ? ' cursor' : ''), 'data-branch': b.branch,
    style: `padding-left:${b.depth * 18}px`, onclick: () => openBranch(b.branch) },
    el('strong', {}, b.branch), ` head #${b.head.seq}`,
    b.parent ? el('span', { class: 'small' }, ` — from ${b.parent}@${b.fork_seq} by ${b.author}: ${b.reason}`) : '')));
}

async function openBranch(branch) {
  S.branch = branch;
  await loadEvents();
  S.cursor = S.head;
  drawTimeline();
  await select(S.head, false);
  await drawActs();
  await integrity();
  await drawTree();
  listen();
}

async function start() {
  if (!S.session || !S.token) { $('login').hidden = false; return; }
  $('app').hidden = false;
  try {
    S.me = await api(`${base()}/me`);
    $('who').textContent = `${S.session} — ${S.me.name} (${S.me.role}${S.me.plays.length ? ': ' + S.me.plays.join(', ') : ''})`;
    $('branch').onchange = () => openBranch($('branch').value);
    $('whatif-form').hidden = S.me.role !== 'gm';
    await openBranch(S.branch);
  } catch (e) { $('explain').textContent = e.message; }
}

// Two points side by side: the shared prefix, the first divergent events,
// the fields of those events and of the states that differ.
function drawDiff(d) {
  const out = $('diff');
  const side = (p) => `${p.branch}@${p.seq}`;
  const rows = [el('tr', {}, el('th', {}, ''), el('th', {}, side(d.a)), el('th', {}, side(d.b)))];
  rows.push(el('tr', {}, el('td', {}, 'shared prefix'), el('td', { colspan: 2 }, d.shared ? `events 1..${d.shared}` : 'none')));
  rows.push(el('tr', { class: 'first' }, el('td', {}, 'first divergent event'),
               el('td', {}, d.a_event ? d.a_event.line : '(none)'), el('td', {}, d.b_event ? d.b_event.line : '(none)')));
  for (const [title, list] of [['event', d.event_fields || []], ['state', d.state || []]]) {
    for (const f of list) {
      rows.push(el('tr', { class: 'field ' + title }, el('td', {}, `${f.scope || title} ${f.field}`),
                   el('td', {}, f.a), el('td', {}, f.b)));
    }
  }
  out.replaceChildren(el('table', { class: 'diff' }, ...rows));
}

async function runDiff() {
  try {
    const q = new URLSearchParams({ a: $('diff-a').value, b: $('diff-b').value });
    drawDiff(await api(`${base()}/diff?${q}`));
  } catch (e) { $('diff').textContent = e.message; }
}

$('go').onclick = () => {
  location.hash = `session=${encodeURIComponent($('in-session').value)}&token=${encodeURIComponent($('in-token').value)}`;
  location.reload();
};
$('scrub').oninput = () => { S.cursor = Number($('scrub').value); drawTimeline(); };
$('scrub').onchange = () => select(Number($('scrub').value), false);
const step = (to) => () => select(Math.max(1, Math.min(S.head, to())), false);
$('step-first').onclick = step(() => 1);
$('step-prev').onclick = step(() => S.cursor - 1);
$('step-next').onclick = step(() => S.cursor + 1);
$('step-last').onclick = step(() => S.head);
// Arrow keys step the cursor too (not while typing in a field).
document.addEventListener('keydown', (e) => {
  if (!S.me || /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) return;
  if (e.key === 'ArrowLeft') step(() => S.cursor - 1)();
  if (e.key === 'ArrowRight') step(() => S.cursor + 1)();
});
$('wi-go').onclick = async () => {
  const change = $('wi-change').value;
  const q = new URLSearchParams({ from: S.branch, name: $('wi-name').value, reason: $('wi-reason').value, change });
  if (change === 'none') q.set('at', S.cursor); else q.set('seq', S.cursor);
  if (change === 'die') { q.set('die', $('wi-die').value); q.set('value', $('wi-value').value); }
  try {
    const r = await api(`${base()}/whatif?${q}`, { method: 'POST' });
    $('wi-report').textContent = r.text;
    $('diff-a').value = S.branch;
    $('diff-b').value = r.branch;
    await drawTree();
    await runDiff();
  } catch (e) { $('wi-report').textContent = e.message; }
};
$('diff-go').onclick = runDiff;
start();
