// Copies the node and credential icons next to the compiled code; tsc only emits JavaScript.
const { src, dest, task } = require('gulp');

task('build:icons', () => src('icons/*.svg').pipe(dest('dist/icons')));
