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

// The ruleset's verb schemas (what each verb reads, each parameter's type,
// allowed values and words: the ruleset's labels) and its rule table (what
// explanations cite), loaded once per ruleset.
async function loadRuleset(ruleset) {
  if (!ruleset || S.rulesetLoaded === ruleset) return;
  const [v, r] = await Promise.all([api(`/api/rulesets/${encodeURIComponent(ruleset)}/verbs`),
                                    api(`/api/rulesets/${encodeURIComponent(ruleset)}/rules`)]);
  S.verbs = Object.fromEntries(v.verbs.map((x) => [x.verb, x]));
  S.rules = Object.fromEntries(r.rules.map((x) => [x.id, x]));
  S.rulesetLoaded = ruleset;
}

// The roster as the state at the head has it: ids, weapons, the map.
async function loadRoster() {
  const r = await api(`${branchBase()}/state`);
  S.roster = (r.state.combatants || []).map((c) => ({ id: c.spec.id, name: c.spec.name, at: c.at,
    weapons: (c.spec.weapons || []).map((w) => w.name) }));
  S.map = r.state.map || null;
}

function choice(cls, values, value, blank) {
  const opts = (blank != null ? [['', blank]] : []).concat(values.map((v) => [v, v]));
  const s = el('select', { class: cls }, ...opts.map(([v, t]) => el('option', { value: v }, t)));
  if (value != null && values.includes(value)) s.value = value;
  return s;
}
const uniq = (xs) => [...new Set(xs.filter((x) => x != null && x !== ''))];
const ids = () => (S.roster || []).map((c) => c.id);
const weaponsOf = (id) => ((S.roster || []).find((c) => c.id === id) || { weapons: [] }).weapons;
const allWeapons = () => uniq((S.roster || []).flatMap((c) => c.weapons));

// Choices a text parameter is filled from (the roster), by what it names.
function paramChoices(key, actor) {
  if (/^(item)$/.test(key)) return uniq([...weaponsOf(actor), ...allWeapons()]);
  if (/^(after|by|relative_to|source)$/.test(key)) return ids();
  return [];
}

// A path editor: with a map, a grid whose squares are clicked in order
// (each a step); without one, x and y inputs and "add". `path` is the
// command's list of {x, y}; `changed` redraws the preview.
function pathEditor(path, actor, changed) {
  const box = el('div', { class: 'path' });
  const shown = el('span', { class: 'small path-steps' });
  const redraw = () => {
    shown.textContent = path.length ? `path: ${path.map((p) => `(${p.x},${p.y})`).join(' → ')}` : 'path: (click squares in order)';
    for (const td of box.querySelectorAll('td.sq')) {
      const k = path.findIndex((p) => p.x === Number(td.dataset.x) && p.y === Number(td.dataset.y));
      td.classList.toggle('step', k >= 0);
      td.dataset.step = k >= 0 ? String(k + 1) : '';
      td.textContent = k >= 0 ? String(k + 1) : td.dataset.who || '';
    }
    changed();
  };
  const m = S.map;
  if (m && m.width > 0 && m.height > 0 && m.width * m.height <= 4096) {
    const who = new Map((S.roster || []).filter((c) => c.at).map((c) => [`${c.at.x},${c.at.y}`, c.id]));
    const terrain = new Map((m.cells || []).map((c) => [`${c.at.x},${c.at.y}`, c.terrain]));
    const rows = [];
    for (let y = 0; y < m.height; y++) {
      const tds = [];
      for (let x = 0; x < m.width; x++) {
        const w = who.get(`${x},${y}`) || '';
        const td = el('td', { class: 'sq' + (w === actor ? ' me' : w ? ' other' : '') + (terrain.has(`${x},${y}`) ? ' t-' + terrain.get(`${x},${y}`) : ''),
                              'data-x': x, 'data-y': y, 'data-who': w ? w.slice(0, 2) : '',
                              title: `(${x},${y})${w ? ' ' + w : ''}${terrain.has(`${x},${y}`) ? ' ' + terrain.get(`${x},${y}`) : ''}` });
        td.onclick = () => { path.push({ x, y }); redraw(); };
        tds.push(td);
      }
      rows.push(el('tr', {}, ...tds));
    }
    box.append(el('table', { class: 'grid' }, ...rows));
  } else {
    const x = el('input', { class: 'px', type: 'number', size: 3 });
    const y = el('input', { class: 'py', type: 'number', size: 3 });
    box.append(el('label', {}, 'x ', x), el('label', {}, 'y ', y),
               el('button', { type: 'button', class: 'add-step', onclick: () => { path.push({ x: Number(x.value), y: Number(y.value) }); redraw(); } }, 'add step'));
  }
  box.append(shown, el('button', { type: 'button', class: 'clear-path', onclick: () => { path.length = 0; redraw(); } }, 'clear path'));
  setTimeout(redraw, 0);
  return box;
}

// A command's inputs, drawn from the verb's schema: the actor, targets and
// weapon as choices from the roster (the legal ones first), the path on a
// grid, one input per parameter (a choice when the ruleset lists its
// values, a checkbox for a flag, a number, or text with the roster's names
// offered), each labelled with the ruleset's own words, the refs, and the
// declaration's words. The command is shown as it will be sent; "as JSON"
// lets one edit it whole. read() gives the command.
function commandEditor(schema, init, opts = {}) {
  init = init || {};
  const box = el('div', { class: 'cmd-editor', 'data-verb': schema.verb });
  const readers = [];
  const preview = el('code', { class: 'preview' });
  const raw = el('textarea', { rows: 2, class: 'cmd' });
  const rawBox = el('details', { class: 'raw' }, el('summary', { class: 'small' }, 'as JSON'), raw);
  let rawEdited = false;
  raw.oninput = () => { rawEdited = true; };
  const built = () => {
    const c = { action: schema.verb };
    for (const r of readers) r(c);
    return c;
  };
  const changed = () => { const c = built(); preview.textContent = JSON.stringify(c); if (!rawEdited) raw.value = JSON.stringify(c); };
  box.oninput = box.onchange = (e) => { if (e.target !== raw) changed(); };
  let actor = opts.actor || init.actor || '';
  if (schema.actor !== 'no') {
    if (opts.actor) readers.push((c) => { c.actor = opts.actor; });
    else {
      const s = choice('actor', ids(), init.actor, schema.actor === 'optional' ? '(none)' : null);
      actor = s.value;
      s.addEventListener('change', () => { actor = s.value; });
      box.append(el('label', {}, 'actor ', s));
      readers.push((c) => { if (s.value) c.actor = s.value; });
    }
  }
  if (schema.targets !== 'no') {
    const list = uniq([...(opts.targets || []), ...(init.targets || []), ...ids()]);
    const holder = el('span', { class: 'targets' });
    const add = (v) => holder.append(choice('target', list, v, schema.targets === 'optional' || holder.children.length ? '(none)' : null));
    for (const t of (init.targets && init.targets.length ? init.targets : [(opts.targets || [])[0]])) add(t);
    box.append(el('label', {}, 'target ', holder),
               el('button', { type: 'button', class: 'add-target', onclick: () => { add(''); changed(); } }, '+ target'));
    readers.push((c) => { const t = [...holder.querySelectorAll('select.target')].map((x) => x.value).filter(Boolean); if (t.length) c.targets = t; });
  }
  if (schema.weapon !== 'no') {
    const list = uniq([...(opts.weapons || []), init.weapon, ...weaponsOf(actor), ...allWeapons()]);
    const s = choice('weapon', list, init.weapon || (opts.weapons || [])[0], schema.weapon === 'optional' ? '(none)' : null);
    box.append(el('label', {}, 'weapon ', s));
    readers.push((c) => { if (s.value) c.weapon = s.value; });
  }
  if (schema.path !== 'no') {
    const path = (init.path || []).map((p) => ({ x: p.x, y: p.y }));
    const editor = pathEditor(path, actor, changed);
    // An optional path (an attack's) folded away; a required one open.
    box.append(schema.path === 'required' || path.length && schema.verb === 'move'
      ? editor : el('details', { class: 'path-opt' }, el('summary', { class: 'small' }, 'path (optional)'), editor));
    readers.push((c) => { if (path.length) c.path = path.map((p) => ({ x: p.x, y: p.y })); });
  }
  const given = Object.fromEntries((init.params || []).map((p) => [p.key, p]));
  for (const p of schema.params || []) {
    if (p.key.includes('*')) continue;  // a key family (energy.*): as JSON
    const g = given[p.key] || {};
    let input, read;
    if (p.allowed && p.allowed.length) {
      input = choice('param', p.allowed, g.text, p.required ? null : '(default)');
      read = () => (input.value ? { key: p.key, text: input.value } : null);
    } else if (p.type === 'flag') {
      input = el('input', { type: 'checkbox', class: 'param' });
      input.checked = g.value === 1;
      read = () => (input.checked ? { key: p.key, value: 1 } : null);
    } else if (p.type === 'int' || p.type === 'nonneg') {
      input = el('input', { type: 'number', class: 'param', size: 5 });
      if (p.type === 'nonneg') input.min = '0';
      if (g.value != null && (g.value !== 0 || p.required)) input.value = String(g.value);
      read = () => (input.value !== '' ? { key: p.key, value: Number(input.value) } : null);
    } else {
      const names = paramChoices(p.key, actor);
      input = names.length ? choice('param', names, g.text, '(none)') : el('input', { class: 'param', size: 14 });
      if (!names.length && g.text) input.value = g.text;
      read = () => (input.value ? { key: p.key, text: input.value } : null);
    }
    input.dataset.key = p.key;
    box.append(el('label', { class: 'param', 'data-key': p.key, title: `${p.key}: ${p.type_name}` }, `${p.doc || p.key} `, input));
    readers.push((c) => { const v = read(); if (v) (c.params = c.params || []).push(v); });
  }
  const refsGiven = Object.fromEntries((init.refs || []).map((r) => [r.key, r]));
  for (const r of schema.refs || []) {
    const input = el('input', { type: 'number', class: 'ref', min: '1', size: 5, 'data-key': r.key });
    if (refsGiven[r.key] && refsGiven[r.key].seq) input.value = String(refsGiven[r.key].seq);
    else if (opts.refSeq) input.value = String(opts.refSeq);
    box.append(el('label', { class: 'ref' }, `${r.doc || r.key} #`, input));
    readers.push((c) => { if (input.value) (c.refs = c.refs || []).push({ key: r.key, seq: Number(input.value) }); });
  }
  const words = el('input', { class: 'text', size: 30, placeholder: 'words (what is said at the table)' });
  if (init.text) words.value = init.text;
  box.append(el('label', {}, 'words ', words));
  readers.push((c) => { if (words.value) c.text = words.value; });
  box.append(el('div', { class: 'small' }, 'sends ', preview), rawBox);
  setTimeout(changed, 0);
  return { node: box, read: () => (rawEdited ? JSON.parse(raw.value) : built()) };
}

// The schema of a verb the view has not loaded (another ruleset's): what
// the act lists.
function schemaOf(verb, a) {
  return (S.verbs || {})[verb] || { verb, actor: 'required', targets: a && a.targets.length ? 'optional' : 'no',
                                     weapon: a && a.weapons.length ? 'optional' : 'no', path: 'no', params: [], refs: [] };
}

const newId = () => `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

async function submit(label, command) {
  const out = $('act-result');
  out.textContent = `${label}: sending…`;
  try {
    const body = Object.assign({}, command, { id: newId() });
    const r = await api(`${branchBase()}/commands?expected_seq=${S.head}`, {
      method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    out.textContent = `${label} applied: events #${r.events[0].seq}..#${r.head.seq}`;
    await ingest(r.events);
  } catch (e) { out.textContent = `${label} refused: ${e.message}`; }
}

// A player's (or the GM's) legal acts as forms that submit commands: one
// form per act the server lists (status?for=), drawn from the verb's schema;
// the server decides.
async function drawActs() {
  const mine = (S.drawingActs = (S.drawingActs || 0) + 1);
  const drawnAt = S.head;
  const acts = [];
  await loadRuleset(S.status && S.status.ruleset);
  await loadRoster();
  if (S.branch === 'main' || S.me.role === 'gm') {
    // The GM acts for whoever may act now (a monster, a player's stand-in).
    const now = S.status ? [S.status.active, ...(S.status.may_act || [])].filter(Boolean) : [];
    for (const c of S.me.role === 'gm' ? [...new Set(now)] : S.me.plays) {
      const st = await api(`${branchBase()}/status?for=${encodeURIComponent(c)}`);
      acts.push(el('h2', {}, `${c}: legal now`));
      if (!st.legal || !st.legal.length) acts.push(el('div', { class: 'small' }, st.note || 'nothing now'));
      for (const a of st.legal || []) acts.push(actForm(a, c));
    }
    if (S.me.role === 'gm') acts.push(...gmForms());
  }
  // Only the latest drawing lands (a new head may start another meanwhile).
  if (mine === S.drawingActs) {
    $('acts').replaceChildren(...acts);
    $('acts').dataset.head = String(drawnAt);  // the head the acts are for
  }
}

function actForm(a, actor) {
  const form = el('details', { class: 'act', 'data-verb': a.verb },
                  el('summary', {}, el('strong', {}, a.verb), ` — ${a.doc}`));
  // An open form stays open when a new head redraws the acts.
  S.openActs = S.openActs || new Set();
  form.open = S.openActs.has(a.verb);
  form.ontoggle = () => { if (form.open) S.openActs.add(a.verb); else S.openActs.delete(a.verb); };
  const ed = commandEditor(schemaOf(a.verb, a), a.command, { actor, targets: a.targets, weapons: a.weapons });
  form.append(ed.node);
  if (a.needs) form.append(el('div', { class: 'small needs' }, `needs: ${a.needs}`));
  form.append(el('button', { class: 'submit', onclick: () => {
    let c; try { c = ed.read(); } catch (e) { $('act-result').textContent = `${a.verb}: ${e.message}`; return; }
    submit(a.verb, c);
  } }, 'submit'));
  return form;
}

// A verb choice and the command's inputs below it, redrawn when the verb
// changes. `init` prefills (a command being replaced).
function verbPicker(cls, init, opts = {}) {
  const verbs = Object.keys(S.verbs || {}).sort((x, y) => (S.verbs[y].gm - S.verbs[x].gm) || x.localeCompare(y));
  const pick = choice(cls, verbs, (init && init.action) || opts.verb || verbs[0]);
  const holder = el('div');
  let ed = null;
  const draw = (c) => { ed = commandEditor(schemaOf(pick.value), c, opts); holder.replaceChildren(ed.node); };
  // Another verb keeps who acts, on whom, with what, and the words.
  pick.onchange = () => {
    let prev = {};
    try { prev = ed.read(); } catch (e) { /* the JSON is the user's to fix */ }
    draw({ actor: prev.actor || (S.status ? S.status.active : ''), targets: prev.targets, weapon: prev.weapon, text: prev.text });
  };
  draw(init && init.action === pick.value ? init : { actor: S.status ? S.status.active : '' });
  return { node: el('div', { class: 'verb-picker' }, el('label', {}, 'verb ', pick), holder), read: () => ed.read() };
}

// The GM's own: any command (a ruling, a monster's act) and undo.
function gmForms() {
  const any = verbPicker('gm-verb', null);
  const form = el('details', { class: 'act gm-command', 'data-verb': '*' }, el('summary', {}, el('strong', {}, 'any command'), ' — a ruling, a monster\'s act'),
                  any.node, el('button', { class: 'submit', onclick: () => {
                    let c; try { c = any.read(); } catch (e) { $('act-result').textContent = e.message; return; }
                    submit(c.action, c);
                  } }, 'submit'));
  S.openActs = S.openActs || new Set();
  form.open = S.openActs.has('*');
  form.ontoggle = () => { if (form.open) S.openActs.add('*'); else S.openActs.delete('*'); };
  const reason = el('input', { id: 'undo-reason', size: 24, placeholder: 'why' });
  const undo = el('div', { class: 'undo' }, el('button', { id: 'undo-go', onclick: async () => {
    const out = $('act-result');
    try {
      const q = new URLSearchParams({ reason: reason.value || 'undone at the table' });
      const r = await api(`${branchBase()}/undo?${q}`, { method: 'POST', body: '', headers: { 'Content-Type': 'application/json' } });
      out.textContent = `undo applied: events #${r.events[0].seq}..#${r.head.seq}`;
      await ingest(r.events);
    } catch (e) { out.textContent = `undo refused: ${e.message}`; }
  } }, 'undo the last command'), ' ', reason);
  return [el('h2', {}, 'GM'), form, undo];
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
      if (mine === S.selecting) drawExplanation(seq, text);
    }
    if (mine === S.selecting) drawWhatIfCommand();
  } catch (e) { $('explain').textContent = e.message; }
}

// The declaration (or interrupt, or ruling) an event resolves.
function causeOf(e) {
  const bt = e.event.body_type, b = e.event.body || {};
  if (bt === 'Declaration' || bt === 'Interrupt') return e.seq;
  if (bt === 'StateChange' && b.cause) return b.cause;
  return e.event.cause || 0;
}
const who = (e) => `${e.event.author || 'system'} (${e.event.role})`;
function provenance(d, roll) {
  if (d.provenance === 'Seeded') return 'seeded';
  if (d.provenance === 'Manual') return 'manual (physical dice)';
  if (d.provenance === 'GmOverride') return `GM override${roll.reason ? ': ' + roll.reason : ''}`;
  return d.provenance;
}
function ruleLine(id) {
  const r = (S.rules || {})[id];
  if (!r) return `${id} (not in the ruleset's rule table)`;
  return `${id}: ${r.seed || '(no seed file)'}, "${r.section}"${r.line ? ', line ' + r.line : ''}${r.summary ? ' — ' + r.summary : ''}`;
}

// An event's explanation as sections, from the log the view holds (every
// field of every event) and the ruleset's rule table: the event, the
// declaration that caused it, its dice with their provenance, the
// modifiers with their sources and rules, the rules cited with their seed
// line, the arithmetic, the rulings and voids naming any of them, who
// authored them; the server's text below.
function drawExplanation(seq, text) {
  const bySeq = new Map(S.events.map((e) => [e.seq, e]));
  const ev = bySeq.get(seq);
  const box = $('explain');
  if (!ev) { box.replaceChildren(el('pre', {}, text)); return; }
  const cause = causeOf(ev);
  const related = S.events.filter((e) => e.seq === seq || (cause && (e.seq === cause || causeOf(e) === cause)));
  const relSeqs = new Set(related.map((e) => e.seq));
  const voided = new Map();
  const rulings = [];
  for (const e of S.events) {
    const b = e.event.body || {};
    if (b.change_type === 'Voided' && b.change) voided.set(b.change.target, e);
    if (b.change_type === 'Voided' && b.change && relSeqs.has(b.change.target)) rulings.push(e);
    if (b.change_type === 'Ruling' && b.change && relSeqs.has(b.change.subject) && !relSeqs.has(e.seq)) rulings.push(e);
  }
  const mark = (e) => (voided.has(e.seq) ? ` [VOIDED by #${voided.get(e.seq).seq}]` : '');
  const section = (cls, title, ...rows) => el('div', { class: 'ex ' + cls }, el('h3', {}, title), ...rows);
  const row = (...c) => el('div', { class: 'ex-row' }, ...c);
  const out = [];
  out.push(section('ex-event', `event #${seq}`, row(ev.line + mark(ev)),
                   row(el('span', { class: 'small' }, `by ${who(ev)}, command ${ev.event.command_id}`))));
  const decl = cause ? bySeq.get(cause) : null;
  if (decl) {
    const c = (decl.event.body && decl.event.body.command) || {};
    const f = [['actor', c.actor], ['verb', c.action], ['targets', (c.targets || []).join(', ')], ['weapon', c.weapon],
               ['path', (c.path || []).map((p) => `(${p.x},${p.y})`).join(' → ')],
               ['params', (c.params || []).map((p) => `${p.key}=${p.text || p.value}`).join(', ')],
               ['words', c.text]].filter(([, v]) => v);
    out.push(section('ex-declaration', `declaration #${cause}`, row(decl.line + mark(decl)),
                     ...f.map(([k, v]) => row(el('span', { class: 'k' }, k), ` ${v}`)),
                     row(el('span', { class: 'small' }, `declared by ${who(decl)}`))));
  } else {
    out.push(section('ex-declaration', 'declaration', row(ev.event.command_id === 'setup' ? 'part of the session\'s set-up' : `part of command ${ev.event.command_id} (no declaration caused it)`)));
  }
  const rolls = related.filter((e) => e.event.body_type === 'Roll');
  if (rolls.length) {
    const rows = [];
    for (const r of rolls) {
      const b = r.event.body;
      rows.push(row(el('strong', {}, `#${r.seq} ${b.roller} ${b.purpose}`), mark(r)));
      for (const d of b.dice || []) {
        rows.push(row(el('span', { class: 'die' }, `d${d.faces} = ${d.value}`),
                      ` roll index ${d.index}, ${provenance(d, b)}${d.kept === false ? ', dropped' : ''}${d.exploded ? ', exploded' : ''}`));
      }
      const kept = (b.dice || []).filter((d) => d.kept !== false).map((d) => d.value);
      rows.push(row(el('span', { class: 'arith' }, `${b.expression} = ${kept.join(' + ') || '0'}${b.modifier ? (b.modifier > 0 ? ' + ' : ' - ') + Math.abs(b.modifier) : ''} = ${b.total}${b.successes ? ` (${b.successes} successes)` : ''}`)));
    }
    out.push(section('ex-dice', 'dice', ...rows));
  }
  const changes = related.filter((e) => e.event.body_type === 'StateChange');
  const mods = [], arith = [], cited = new Set();
  for (const e of changes) {
    const b = e.event.body;
    if (b.rule) cited.add(b.rule);
    const plain = [];
    for (const n of b.numbers || []) {
      if (n.rule) cited.add(n.rule);
      if (n.source || n.rule) {
        mods.push(row(el('span', { class: 'k' }, `${n.key} = ${n.value}`),
                      n.source ? ` from ${n.source}` : '', n.rule ? el('span', { class: 'small' }, ` (${ruleLine(n.rule)})`) : '',
                      el('span', { class: 'small' }, ` — in #${e.seq}`)));
      }
      plain.push(`${n.key}=${n.value}`);
    }
    arith.push(row(el('span', { class: e.seq === seq ? 'this' : '' }, e.line + mark(e)),
                   plain.length ? el('div', { class: 'small arith' }, plain.join('  ')) : ''));
  }
  out.push(section('ex-modifiers', 'modifiers and their sources', ...(mods.length ? mods : [row(el('span', { class: 'small' }, 'none'))])));
  out.push(section('ex-rules', 'rules cited', ...(cited.size ? [...cited].map((id) => row(ruleLine(id))) : [row(el('span', { class: 'small' }, 'none'))])));
  if (arith.length) out.push(section('ex-arithmetic', 'what it caused, with its numbers', ...arith));
  out.push(section('ex-rulings', 'rulings and voids',
                   ...(rulings.length ? rulings.map((e) => row(`${e.line}  (by ${who(e)})`)) : [row(el('span', { class: 'small' }, 'none'))])));
  const authors = uniq([...related, ...rulings].map(who));
  out.push(section('ex-authors', 'authors', row(authors.join(', '))));
  out.push(el('details', { class: 'ex-text' }, el('summary', { class: 'small' }, 'as text (combat explain)'), el('pre', {}, text)));
  box.replaceChildren(...out);
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
  // The token was revoked (the GM's or the operator's act): the server ends
  // the stream; the view stops reconnecting and says so.
  S.stream.addEventListener('revoked', () => {
    S.stream.close();
    $('live').textContent = 'token revoked';
    $('live').className = 'bad';
  });
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
// The what-if's command (replace, insert): the verb and its inputs,
// prefilled with the command at the cursor when replacing it.
function drawWhatIfCommand() {
  const change = $('wi-change').value;
  const holder = $('wi-command');
  if (change !== 'replace' && change !== 'insert') { holder.replaceChildren(); S.wiEditor = null; return; }
  if (!S.verbs) return;
  let init = null;
  if (change === 'replace') {
    const at = S.events.find((e) => e.seq === S.cursor);
    const decl = at && S.events.find((e) => e.event.command_id === at.event.command_id && e.event.body_type === 'Declaration');
    init = decl ? Object.assign({}, decl.event.body.command) : null;
    if (init) { delete init.id; delete init.author; delete init.role; }
  }
  // An inserted ruling names the event before it (the last one it can see).
  S.wiEditor = verbPicker('wi-verb', init, { refSeq: change === 'insert' && S.cursor > 1 ? S.cursor - 1 : undefined });
  holder.replaceChildren(el('div', { class: 'small' }, change === 'replace'
    ? `the command of event #${S.cursor}, as it would have been:` : `inserted before event #${S.cursor}:`), S.wiEditor.node);
}
// The die and its value only for a die change.
function showDieInputs() {
  for (const id of ['wi-die', 'wi-value']) $(id).parentElement.hidden = $('wi-change').value !== 'die';
}
$('wi-change').onchange = () => { showDieInputs(); drawWhatIfCommand(); };
showDieInputs();

$('wi-go').onclick = async () => {
  const change = $('wi-change').value;
  const q = new URLSearchParams({ from: S.branch, name: $('wi-name').value, reason: $('wi-reason').value, change });
  if (change === 'none') q.set('at', S.cursor);
  else if (change === 'insert') q.set('at', Math.max(0, S.cursor - 1));
  else q.set('seq', S.cursor);
  if (change === 'die') { q.set('die', $('wi-die').value); q.set('value', $('wi-value').value); }
  let body = '';
  try {
    if (change === 'replace' || change === 'insert') body = JSON.stringify(Object.assign(S.wiEditor.read(), { id: newId() }));
    const r = await api(`${base()}/whatif?${q}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
    $('wi-report').textContent = r.text;
    $('diff-a').value = S.branch;
    $('diff-b').value = r.branch;
    await drawTree();
    await runDiff();
  } catch (e) { $('wi-report').textContent = e.message; }
};
$('diff-go').onclick = runDiff;
start();
