// The browser view in a real headless Chromium against a real server
// (started by tests/browser.sh, which passes BASE, SESSION, GM, PLAYER,
// PLAYS in the environment). Each check is an assertion on the page; the
// last line is "N passed, M failed".
'use strict';
const { chromium } = require('playwright-core');
const path = require('path');

const { BASE, SESSION, GM, PLAYER, PLAYS } = process.env;
const SHOTS = process.env.SHOTS || path.join(__dirname, '..', 'server', 'screenshots');
const T = 15000;  // every wait is bounded
let passed = 0, failed = 0;

async function check(name, fn) {
  try { await fn(); passed++; console.log(`ok   ${name}`); }
  catch (e) { failed++; console.log(`FAIL ${name}: ${String(e.message || e).split('\n')[0]}`); }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }
const text = (page, sel) => page.locator(sel).first().innerText({ timeout: T });
// The acts drawn for the head the page has (a new head redraws them).
const actsAtHead = (page) => page.waitForFunction(() => S.head > 0 && $('acts').dataset.head === String(S.head));

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
                                          args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'], timeout: T });
  const errors = [];
  try {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    ctx.setDefaultTimeout(T);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${BASE}/#session=${SESSION}&token=${PLAYER}`);

    await check('the table shows every combatant with a vital bar', async () => {
      await page.waitForFunction(() => document.querySelectorAll('#table .combatant').length >= 4);
      const t = await text(page, '#table');
      for (const n of ['Aria', 'Bo']) assert(t.includes(n), `no ${n} in the table`);
      assert(await page.locator('#table .bar').count() >= 4, 'no vital bars');
      assert(/hp \d+\/\d+/.test(t), 'no hp current/max');
    });
    await check('the table names the round and whose turn', async () => {
      const at = await text(page, '#table-at');
      assert(/round 1/.test(at) && at.includes(PLAYS), `table-at: ${at}`);
    });
    await check('budgets left and conditions with their end are shown', async () => {
      const t = await text(page, '#table');
      assert(/left: .*actions 3/.test(t), 'no budgets');
      assert(/undetected.*until removed/.test(t), 'no condition with its end');
    });
    await check('the header shows the verify status and the head hash', async () => {
      await page.waitForFunction(() => /verified/.test(document.querySelector('#integrity').textContent));
      assert(/#\d+ [0-9a-f]{16}/.test(await text(page, '#integrity')), 'no head hash');
    });

    const headBefore = Number(await page.evaluate(() => S.head));
    await check('the player\'s legal acts are forms, and one submitted lands in the log', async () => {
      const form = page.locator('#acts .act[data-verb="attack"]');
      await form.waitFor();
      await form.locator('summary').first().click();
      assert(await form.locator('select.target').count() === 1, 'no target choice');
      // Dedicated inputs from the verb's schema, labelled with the ruleset's words.
      assert(await form.locator('select.weapon').count() === 1, 'no weapon choice');
      const stat = await form.locator('label.param[data-key="stat"]').innerText();
      assert(/STR/.test(stat), `the stat parameter is not labelled with the ruleset's words: ${stat}`);
      assert(await form.locator('textarea.cmd').isHidden(), 'the raw JSON is shown, not the inputs');
      const sends = await form.locator('code.preview').innerText();
      assert(/"targets":\["gob"\]/.test(sends), `the command shown: ${sends}`);
      await form.locator('button.submit').click();
      await page.waitForFunction((h) => S.head > h, headBefore);
      await page.locator('#timeline .ev', { hasText: 'attack' }).first().waitFor();
      await page.waitForFunction(() => /attack (applied|refused)/.test(document.querySelector('#act-result').textContent));
      assert(/attack applied/.test(await text(page, '#act-result')), 'no "applied" for the act');
    });
    await check('the server decides: a form edited to act for another\'s combatant is refused (403), nothing written', async () => {
      await actsAtHead(page);
      const head = await page.evaluate(() => S.head);
      const form = page.locator('#acts .act[data-verb="end_turn"]');
      await form.locator('summary').first().click();
      await form.locator('details.raw summary').click();
      await form.locator('textarea.cmd').fill(JSON.stringify({ actor: 'gob', action: 'end_turn' }));
      await form.locator('button.submit').click();
      await page.waitForFunction(() => /end_turn refused: 403/.test(document.querySelector('#act-result').textContent));
      assert(await page.evaluate(() => S.head) === head, 'the head moved');
    });
    const headAfter = Number(await page.evaluate(() => S.head));
    await check('the table follows the head after the command (actions spent)', async () => {
      await page.waitForFunction((h) => document.querySelector('#table-at').textContent.includes(`#${h}`), headAfter);
      assert(!/left: actions 3/.test(await text(page, '#table')), 'actions not spent');
    });
    await check('the timeline groups events by round and turn', async () => {
      assert(await page.locator('#timeline .group').count() >= 2, 'no round/turn groups');
    });
    await check('the legal acts are drawn again for the new head', async () => {
      await page.locator('#acts .act[data-verb="end_turn"]').waitFor();
    });
    await check('an item parameter is a choice filled from the roster (drop_item: the actor\'s weapon)', async () => {
      await actsAtHead(page);
      const form = page.locator('#acts .act[data-verb="drop_item"]');
      await form.locator('summary').first().click();
      const items = await form.locator('select.param[data-key="item"] option').allInnerTexts();
      assert(items.includes('spear'), `item choices: ${items}`);
      await form.locator('summary').first().click();
    });
    await check('a move\'s path is clicked on the grid, square by square, and submitted', async () => {
      await actsAtHead(page);
      const head = await page.evaluate(() => S.head);
      const form = page.locator('#acts .act[data-verb="move"]');
      await form.locator('summary').first().click();
      await form.locator('button.clear-path').click();
      const [x, y] = await page.evaluate((c) => { const r = S.roster.find((k) => k.id === c); return [r.at.x, r.at.y]; }, PLAYS);
      await form.locator(`td.sq[data-x="${x}"][data-y="${y - 1}"]`).click();
      await form.locator(`td.sq[data-x="${x}"][data-y="${y - 2}"]`).click();
      const steps = await form.locator('.path-steps').innerText();
      assert(steps.includes(`(${x},${y - 1}) → (${x},${y - 2})`), `path: ${steps}`);
      assert(await form.locator('td.sq.step').count() === 2, 'the steps are not marked on the grid');
      await page.screenshot({ path: path.join(SHOTS, 'table.png'), fullPage: true });
      await form.locator('button.submit').click();
      await page.waitForFunction(() => /move (applied|refused)/.test(document.querySelector('#act-result').textContent));
      const r = await text(page, '#act-result');
      assert(/move applied/.test(r), r);
      await page.waitForFunction((h) => S.head > h, head);
      const moved = await page.evaluate(() => S.events.filter((e) => e.event.body_type === 'Declaration').pop().event.body.command.path);
      assert(JSON.stringify(moved) === JSON.stringify([{ x, y: y - 1 }, { x, y: y - 2 }]), `declared path: ${JSON.stringify(moved)}`);
    });

    await check('scrubbing the timeline to an earlier event shows the state there', async () => {
      await page.locator('#scrub').fill('5');
      await page.waitForFunction(() => /after event #5/.test(document.querySelector('#table-at').textContent));
      const at = await text(page, '#table-at');
      assert(/round 0/.test(at), `table-at: ${at}`);
      assert(await page.locator('#timeline .ev.future').count() > 0, 'later events not marked');
    });
    await check('the step buttons (and the arrow keys) move the cursor one event', async () => {
      await page.locator('#step-next').click();
      await page.waitForFunction(() => /after event #6/.test(document.querySelector('#table-at').textContent));
      await page.evaluate(() => document.activeElement && document.activeElement.blur());
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(() => /after event #5/.test(document.querySelector('#table-at').textContent));
    });

    // The attack's roll, its kept die (position from 1) and a face it did not show.
    const [rollSeq, die, face] = await page.evaluate((h) => {
      const r = S.events.find((e) => e.seq > h && e.event.body_type === 'Roll');
      if (!r) return [0, 1, 1];
      const dice = r.event.body.dice || [];
      const k = Math.max(0, dice.findIndex((d) => d.kept !== false));
      return [r.seq, k + 1, dice[k] && dice[k].value === 1 ? 20 : 1];
    }, headBefore);
    await check('clicking an event shows its explanation (declaration, dice with provenance)', async () => {
      assert(rollSeq > 0, 'the attack rolled no die');
      await page.locator(`#timeline .ev[data-seq="${rollSeq}"]`).click();
      await page.waitForFunction((s) => new RegExp(`event #${s}`).test(document.querySelector('#explain').textContent), rollSeq);
      const ex = await text(page, '#explain');
      assert(/d20 = \d+/.test(ex), 'no die');
      assert(/seeded|roll index/.test(ex), 'no provenance');
      assert(/attack/.test(ex), 'no declaration');
    });
    await check('the explanation is in sections: declaration, dice with provenance, modifiers with sources, rules with their seed line, arithmetic, rulings, authors', async () => {
      for (const c of ['ex-event', 'ex-declaration', 'ex-dice', 'ex-modifiers', 'ex-rules', 'ex-arithmetic', 'ex-rulings', 'ex-authors']) {
        assert(await page.locator(`#explain .${c}`).count() === 1, `no section ${c}`);
      }
      const decl = await text(page, '#explain .ex-declaration');
      assert(/verb attack/.test(decl) && decl.includes(PLAYS), `declaration: ${decl}`);
      const dice = await text(page, '#explain .ex-dice');
      assert(/d20 = \d+ roll index \d+, seeded/.test(dice), `dice: ${dice}`);
      assert(/2d20kh1\+\d+ = \d+ \+ \d+ = \d+/.test(dice), `no arithmetic: ${dice}`);
      const mods = await text(page, '#explain .ex-modifiers');
      assert(/ = 1 from .*\(000\.\w+: .*line \d+/.test(mods), `modifiers: ${mods}`);
      const rules = await text(page, '#explain .ex-rules');
      assert(/000\.attack[.\w]*: \S+\.txt, ".*", line \d+/.test(rules), `rules: ${rules}`);
      const authors = await text(page, '#explain .ex-authors');
      assert(/\(Player\)/.test(authors), `authors: ${authors}`);
    });
    await page.locator('#timeline').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'timeline.png'), fullPage: true });

    await check('a command from elsewhere (the GM, through the API) arrives live over the stream', async () => {
      const head = await page.evaluate(() => S.head);
      const r = await fetch(`${BASE}/api/sessions/${SESSION}/branches/main/commands?expected_seq=${head}`, {
        method: 'POST', headers: { Authorization: `Bearer ${GM}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: 'gm-live-1', action: 'gm_note', params: [{ key: 'kind', text: 'ruling' }],
                               text: 'the ford runs cold' }),
        signal: AbortSignal.timeout(T) });
      assert(r.status === 201, `submit: ${r.status}`);
      const seq = (await r.json()).head.seq;
      await page.locator(`#timeline .ev[data-seq="${seq}"]`).waitFor();
      await page.waitForFunction((s) => document.querySelector('#integrity').textContent.includes(`#${s} `), seq);
    });
    await check('a player has no what-if form (the GM\'s)', async () => {
      assert(await page.locator('#whatif-form').isHidden(), 'what-if shown to a player');
    });

    // The GM: a what-if on the attack's die, then the two branches diffed.
    const gm = await ctx.newPage();
    gm.on('pageerror', (e) => errors.push(String(e)));
    await gm.goto(`${BASE}/#session=${SESSION}&token=${GM}`);
    await gm.waitForFunction(() => document.querySelectorAll('#timeline .ev').length > 0);
    await check('the GM gets the legal acts of whoever has the turn', async () => {
      await gm.waitForFunction((c) => [...document.querySelectorAll('#acts h2')].some((h) => h.textContent.startsWith(`${c}:`)), PLAYS);
    });
    await check('the GM runs a what-if changing a die and sees the report', async () => {
      await gm.locator(`#timeline .ev[data-seq="${rollSeq}"]`).click();
      await gm.waitForFunction((s) => new RegExp(`event #${s}`).test(document.querySelector('#explain').textContent), rollSeq);
      await gm.selectOption('#wi-change', 'die');
      await gm.fill('#wi-die', String(die));
      await gm.fill('#wi-value', String(face));
      await gm.fill('#wi-name', 'fumble');
      await gm.fill('#wi-reason', `what if ${PLAYS} rolled a ${face}`);
      await gm.locator('#wi-go').click();
      await gm.waitForFunction(() => document.querySelector('#diff-b').value === 'fumble');
      const report = await text(gm, '#wi-report');
      assert(/branch fumble forked from main/.test(report) && report.includes(`set to ${face}`), `report: ${report.slice(0, 200)}`);
      await gm.waitForFunction(() => [...document.querySelectorAll('#branch option')].some((o) => o.value === 'fumble'));
    });
    await check('the branch tree lists the what-if under main', async () => {
      await gm.waitForFunction(() => /fumble/.test(document.querySelector('#tree').textContent));
      const tree = await text(gm, '#tree');
      assert(/main/.test(tree) && /fumble/.test(tree) && tree.includes(`what if ${PLAYS} rolled a ${face}`), `tree: ${tree}`);
    });
    await check('the diff of the two branches names the first divergence and the fields', async () => {
      await gm.locator('#diff-go').click();
      await gm.waitForFunction(() => /diverge/i.test(document.querySelector('#diff').textContent));
      const d = await text(gm, '#diff');
      assert(new RegExp(`#${rollSeq}`).test(d), `no divergent event #${rollSeq}: ${d.slice(0, 200)}`);
      const first = await gm.locator('#diff tr.first td').allInnerTexts();
      assert(first.length === 3 && /roll/.test(first[1]) && /GM override/.test(first[2]), `first divergent row: ${first}`);
      assert(await gm.locator('#diff tr.field.event').count() > 0, 'no event field that differs');
      assert(await gm.locator('#diff tr.field.state').count() > 0, 'no state field that differs');
    });
    await check('opening the what-if branch from the tree shows its log, verified', async () => {
      await gm.locator('#tree .branch[data-branch="fumble"]').click();
      await gm.waitForFunction(() => S.branch === 'fumble' && $('branch').value === 'fumble');
      await gm.locator('#timeline .ev', { hasText: 'GM override' }).first().waitFor();
      await gm.waitForFunction(() => /verified/.test($('integrity').textContent));
    });
    await gm.locator('#tree .branch[data-branch="main"]').click();
    await gm.waitForFunction((r) => S.branch === 'main' && S.events.some((e) => e.seq === r) && /verified/.test($('integrity').textContent), rollSeq);
    // The attack's declaration: replaced (another weapon's words), and a ruling inserted before it.
    const declSeq = await gm.evaluate((r) => S.events.filter((e) => e.seq < r && e.event.body_type === 'Declaration').pop().seq, rollSeq);
    await check('the GM replaces a declaration in a what-if: the form is prefilled with the command at the cursor', async () => {
      await gm.locator(`#timeline .ev[data-seq="${declSeq}"]`).click();
      await gm.waitForFunction((s) => new RegExp(`event #${s}`).test(document.querySelector('#explain').textContent), declSeq);
      await gm.selectOption('#wi-change', 'replace');
      await gm.locator('#wi-command select.wi-verb').waitFor();
      assert(await gm.locator('#wi-command select.wi-verb').inputValue() === 'attack', 'the verb is not the declaration\'s');
      assert(await gm.locator('#wi-command select.target').inputValue() === 'gob', 'the target is not the declaration\'s');
      await gm.locator('#wi-command input.text').fill('a feint instead');
      await gm.locator('#wi-command select.wi-verb').selectOption('feint');
      await gm.locator('#wi-command input.text').fill('a feint instead');
      await gm.fill('#wi-name', 'feint');
      await gm.fill('#wi-reason', 'what if she feinted');
      await gm.locator('#wi-go').click();
      await gm.waitForFunction(() => document.querySelector('#diff-b').value === 'feint');
      await gm.waitForFunction(() => /feint@/.test(document.querySelector('#diff').textContent) && /diverge/i.test(document.querySelector('#diff').textContent));
      const report = await text(gm, '#wi-report');
      assert(/branch feint forked from main/.test(report) && /CHANGED|replace/i.test(report), `report: ${report.slice(0, 300)}`);
      await gm.waitForFunction(() => /diverge/i.test(document.querySelector('#diff').textContent));
      const first = await gm.locator('#diff tr.first td').allInnerTexts();
      assert(/feint/.test(first[2] || ''), `first divergent row: ${first}`);
    });
    await check('the GM inserts a ruling before an event in a what-if', async () => {
      await gm.selectOption('#wi-change', 'insert');
      await gm.locator('#wi-command select.wi-verb').selectOption('gm_note');
      await gm.locator('#wi-command select.wi-verb').waitFor();
      await gm.locator('#wi-command input.param[data-key="kind"]').fill('deny');
      await gm.locator('#wi-command input.text').fill('the spear is wet');
      assert(await gm.locator('#wi-command input.ref[data-key="subject"]').inputValue() === String(declSeq - 1), 'the ruling does not name the event before');
      await gm.fill('#wi-name', 'ruled');
      await gm.fill('#wi-reason', 'a ruling first');
      await gm.locator('#wi-go').click();
      await gm.waitForFunction(() => document.querySelector('#diff-b').value === 'ruled');
      await gm.waitForFunction(() => /ruled@/.test(document.querySelector('#diff').textContent) && /diverge/i.test(document.querySelector('#diff').textContent));
      const report = await text(gm, '#wi-report');
      assert(/branch ruled forked from main at #\d+/.test(report), `report: ${report.slice(0, 300)}`);
      const first = await gm.locator('#diff tr.first td').allInnerTexts();
      assert(/gm_note/.test(first[2] || ''), `first divergent row: ${first}`);
    });
    await gm.screenshot({ path: path.join(SHOTS, 'whatif.png'), fullPage: true });
    await check('the GM\'s undo voids the last command; its explanation shows the void', async () => {
      const head = await gm.evaluate(() => S.head);
      await gm.fill('#undo-reason', 'misheard');
      await gm.locator('#undo-go').click();
      await gm.waitForFunction(() => /undo applied/.test(document.querySelector('#act-result').textContent));
      await gm.waitForFunction((h) => S.head > h, head);
      const voided = await gm.evaluate(() => { const v = S.events.filter((e) => (e.event.body || {}).change_type === 'Voided').pop(); return v && v.event.body.change.target; });
      assert(voided > 0, 'no void in the log');
      await gm.locator(`#timeline .ev[data-seq="${voided}"]`).click();
      await gm.waitForFunction((s) => new RegExp(`event #${s}`).test(document.querySelector('#explain').textContent), voided);
      assert(/VOIDED/.test(await text(gm, '#explain .ex-event')), 'the event is not marked voided');
      assert(/misheard/.test(await text(gm, '#explain .ex-rulings')), 'the void is not listed');
    });
    await check('the GM revokes the player\'s token: the player\'s open page says so and its stream ends', async () => {
      const r = await fetch(`${BASE}/api/sessions/${SESSION}/participants/${await page.evaluate(() => S.me.name)}`, {
        method: 'DELETE', headers: { Authorization: `Bearer ${GM}` }, signal: AbortSignal.timeout(T) });
      assert(r.status === 200, `revoke: ${r.status}`);
      await page.waitForFunction(() => document.querySelector('#live').textContent === 'token revoked');
      const again = await fetch(`${BASE}/api/sessions/${SESSION}/me`, { headers: { Authorization: `Bearer ${PLAYER}` },
                                                                         signal: AbortSignal.timeout(T) });
      assert(again.status === 401, `the revoked token: ${again.status}`);
    });
    await check('without a token the page asks for one; a wrong token is refused by the server (401)', async () => {
      const p = await ctx.newPage();
      try {
        await p.goto(`${BASE}/`);
        assert(await p.locator('#login').isVisible(), 'no login form');
        await p.goto(`${BASE}/#session=${SESSION}&token=${'0'.repeat(64)}`);
        await p.reload();
        await p.waitForFunction(() => /401/.test(document.querySelector('#explain').textContent));
        assert(await p.locator('#table .combatant').count() === 0, 'a table drawn for a wrong token');
      } finally { await p.close(); }
    });
    // Every other example's ruleset, drawn by the same view (the GM's token).
    for (const spec of (process.env.OTHERS || '').trim().split(/\s+/).filter(Boolean)) {
      const [name, token, n] = spec.split(':');
      await check(`${name}: the table, the timeline and verify drawn for its ruleset`, async () => {
        const p = await ctx.newPage();
        p.on('pageerror', (e) => errors.push(`${name}: ${e}`));
        try {
          await p.goto(`${BASE}/#session=${name}&token=${token}`);
          await p.waitForFunction((k) => document.querySelectorAll('#table .combatant').length === k, Number(n));
          assert(await p.locator('#table .bar').count() > 0, 'no vital bar');
          assert(await p.locator('#timeline .ev').count() > 0, 'no events');
          await p.waitForFunction(() => /verified/.test(document.querySelector('#integrity').textContent));
          // The forms come from this ruleset's verb table (its own verbs and words).
          const verbs = (await (await fetch(`${BASE}/api/rulesets/${await p.evaluate(() => S.status.ruleset)}/verbs`,
                                            { signal: AbortSignal.timeout(T) })).json()).verbs.map((v) => v.verb);
          await actsAtHead(p);
          const offered = await p.evaluate(() => [...document.querySelectorAll('#acts select.gm-verb option')].map((o) => o.value));
          assert(offered.length === verbs.length && verbs.every((v) => offered.includes(v)), `verbs offered: ${offered}`);
          await p.locator('#scrub').fill('3');
          await p.waitForFunction(() => /after event #3/.test(document.querySelector('#table-at').textContent));
        } finally { await p.close(); }
      });
    }
    await check('no script error on any page', async () => assert(errors.length === 0, errors.join('; ')));
  } finally {
    await browser.close();
  }
}

main().catch((e) => { failed++; console.log(`FAIL setup: ${e.message}`); })
  .finally(() => { console.log(`${passed} passed, ${failed} failed`); process.exit(failed ? 1 : 0); });
