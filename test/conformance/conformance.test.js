'use strict';
// The spec as a table: one row per sentence that shows a response shape, a status word, an
// accepted value or a rejection (README.md here lists the sections). Each row runs the node
// through n8n-core's execution code against the simulator.
const { useSimulator } = require('../support');
const { helpers } = require('./helpers');

const ctx = useSimulator({ scenario: { durationMs: 0 } });
const h = helpers(ctx);

const rows = [...require('./rows-shapes'), ...require('./rows-values')];

test('every row names its section', () => {
	for (const [name] of rows) expect(name).toMatch(/^§\d+(\.\d+)? /);
	expect(new Set(rows.map(([name]) => name)).size).toBe(rows.length);
});

test.each(rows)('%s', async (_name, run) => {
	await run(h, ctx);
});
