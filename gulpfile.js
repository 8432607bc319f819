// Copies what n8n reads beside the compiled code; tsc only emits JavaScript:
// - the node and credential icons;
// - each node's codex (`<Node>.node.json`: categories, search aliases, documentation links), read
//   by n8n from beside the built `<Node>.node.js`;
// - the output schemas (`__schema__/v<version>/<resource>/<operation>.json`), which n8n serves to
//   the editor so the next node can map fields before this one has run (`n8n-node build` copies
//   the same files).
const { src, dest, task, parallel } = require('gulp');

const icons = () => src('icons/*.svg').pipe(dest('dist/icons'));
const codex = () => src('nodes/*/*.node.json', { base: '.' }).pipe(dest('dist'));
const schemas = () => src('nodes/**/__schema__/**/*.json', { base: '.' }).pipe(dest('dist'));

task('build:icons', icons);
task('build:assets', parallel(icons, codex, schemas));
