'use strict';
// jest's globalSetup (both configs): the suites load dist/, so a source edited since the last build
// is built first (one line says so), or, with BUILD_CURRENT=check, the run stops naming it
// (test/build-current.js).
module.exports = () => {
	require('../build-current').ensureCurrent();
};
