// @ts-check
/**
 * `npm run test:mutation`: how strong the tests of the pure layers are (docs/DEVELOPMENT.md,
 * "Mutation testing"). Not part of CI or `npm test`: a run takes hours on the 2-core machine.
 *
 * What is mutated is what the tests run: the built JavaScript of those layers in dist/ (the tests
 * load dist/, never the TypeScript), which tsc emits line for line from the sources (no bundling,
 * types erased), so a survivor's line is found in the .ts beside it. Stryker copies the checkout
 * (dist/ built and stamped by `npm run test:mutation` first) into a sandbox and mutates the copy;
 * the sandbox's jest (test/mutation/jest.config.js) refuses to rebuild (BUILD_CURRENT=check).
 * Code that runs only while a module loads and that no test is credited with (tsc's export lines)
 * is `ignoreStatic`: each such mutant would cost a run of every file. The registry's rows are
 * credited: registry-models and registry-rows load them afresh in each test (fresh-modules.js), and
 * the rows lock fails on any changed value.
 */
import layers from './layers.js';

// One layer, or one file of it, per run (run.js sets MUTATION_TARGET), each with its own reports;
// all the layers without.
const target = process.env.MUTATION_TARGET ? layers.targetOf(process.env.MUTATION_TARGET) : undefined;
// A run with the quick tests only (run.js --quick) keeps its reports apart: its score is a lower bound.
const name = `${target ? target.name : 'all'}${process.env.MUTATION_QUICK ? '-quick' : ''}`;
const mutate = target ? [target.mutate] : Object.keys(layers.LAYERS).map(layers.distGlob);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
	testRunner: 'jest',
	plugins: ['@stryker-mutator/jest-runner', './test/mutation/tsc-interop.mjs', './test/mutation/editor-texts.mjs'],
	ignorers: ['tsc-interop', 'editor-texts'],
	jest: { projectType: 'custom', configFile: 'test/mutation/jest.config.js', enableFindRelatedTests: false },
	mutate,
	coverageAnalysis: 'perTest',
	ignoreStatic: true,
	// Two jest processes by default (2 cores); MUTATION_CONCURRENCY=4 for layers whose tests mostly
	// wait on the simulator's clock (engine/waiting, transport), where two processes leave the cores idle.
	concurrency: Number(process.env.MUTATION_CONCURRENCY) || 2,
	// A loaded machine: a mutant is timed out only well past its tests' time in the initial run.
	timeoutFactor: 2.5,
	timeoutMS: 30000,
	dryRunTimeoutMinutes: 60,
	incremental: true,
	incrementalFile: `reports/mutation/${name}/stryker-incremental.json`,
	ignorePatterns: ['test/lines/n8n-2', 'test/scan/node_modules', 'demo-output', '.e2e', '.n8n-e2e', 'reports', '.mutation-coverage.jsonl', '*.tgz'],
	reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
	htmlReporter: { fileName: `reports/mutation/${name}/index.html` },
	jsonReporter: { fileName: `reports/mutation/${name}/mutation.json` },
	clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportScoreTable: true },
	thresholds: { high: 90, low: 80, break: null },
	tempDirName: '.stryker-tmp',
	// The sandbox's sources stay byte for byte the checkout's, as dist/'s stamp hashed them: Stryker
	// would add `// @ts-nocheck` to every .ts and .js file, and rewrite tsconfig.json (its paths, for
	// projects that extend a file outside): no such file is named here, so none is rewritten.
	disableTypeChecks: false,
	tsconfigFile: 'test/mutation/no-tsconfig-to-rewrite.json',
};
export default config;
