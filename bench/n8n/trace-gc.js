'use strict';
/*
 * Loaded into every n8n process by BENCH_TRACE_GC=1 (NODE_OPTIONS --require; Node refuses
 * --trace-gc itself there): V8 then writes a line per collection into n8n's log (kept with
 * E2E_KEEP=1: <folder>/main/n8n-start.log), with the heap in use and the heap it holds before and
 * after, and why it collected. docs/PERFORMANCE.md (Main's CPU against the loop's) reads it;
 * bench/n8n/gc-report.js sums it per run.
 */
require('v8').setFlagsFromString('--trace-gc');
// V8 stamps each line with milliseconds since the process started: this puts them on the clock
// the bench prints its runs by (epoch ms).
console.log(`trace-gc: pid ${process.pid} started at epoch ms ${Math.round(performance.timeOrigin)}`);
