'use strict';
// The pictures the simulator "generates": a diagonal gradient in colours taken from the prompt,
// the prompt's first words drawn large in the middle and the size (and model) small at the bottom,
// so a result in n8n's binary preview looks like a result and shows what was asked for.
const crypto = require('node:crypto');
const { rgbPng } = require('./png');
const { drawable, glyphPixel, GLYPH_WIDTH, GLYPH_HEIGHT } = require('./font5x7');

const CELL_W = GLYPH_WIDTH + 1;
const CELL_H = GLYPH_HEIGHT + 2;
const TITLE_CHARS = 30;
const LINE_CHARS = 14;
const BAND = 8;
const SMALL_WORDS = new Set(['A', 'AN', 'THE', 'OF', 'FOR', 'OUR', 'AND', 'OR', 'TO', 'IN', 'ON', 'AT', 'WITH', 'MY', 'YOUR', 'BY']);

function hsl(h, s, l) {
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
}

/** The first words of the prompt, wrapped into short lines. */
function titleLines(prompt) {
  const words = drawable(prompt).split(/\s+/).filter(Boolean);
  const lines = [];
  let used = 0;
  for (const word of words) {
    if (used + word.length > TITLE_CHARS && used > 0) break;
    used += word.length + 1;
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= LINE_CHARS) lines[lines.length - 1] = `${last} ${word}`;
    else for (let i = 0; i < word.length; i += LINE_CHARS) lines.push(word.slice(i, i + LINE_CHARS));
  }
  // A title does not end on "… FOR OUR": drop the small words the cut left at its end.
  while (lines.length) {
    const words = lines[lines.length - 1].split(' ');
    if (!SMALL_WORDS.has(words[words.length - 1]) || (lines.length === 1 && words.length === 1)) break;
    words.pop();
    if (words.length) lines[lines.length - 1] = words.join(' ');
    else lines.pop();
  }
  return lines.length ? lines : ['?'];
}

/**
 * A line of text at (x, y) and `scale`: its 7 glyph rows pre-rendered as 1-byte masks (one byte per
 * pixel column), so drawing a picture line is a lookup, whatever the picture's size.
 */
function textSpan(text, x, y, scale) {
  const width = (text.length * CELL_W - 1) * scale;
  const rows = Array.from({ length: GLYPH_HEIGHT }, (_, r) => {
    const mask = new Uint8Array(width);
    for (let px = 0; px < width; px++) {
      const cell = Math.floor(px / (CELL_W * scale));
      const col = Math.floor((px % (CELL_W * scale)) / scale);
      mask[px] = glyphPixel(text[cell], col, r) ? 1 : 0;
    }
    return mask;
  });
  return { x, y, scale, width, height: GLYPH_HEIGHT * scale, rows, shadow: Math.max(1, Math.round(scale / 3)) };
}

function layout(width, height, title, caption) {
  const lines = titleLines(title);
  const longest = Math.max(...lines.map((l) => l.length));
  const fit = Math.min((width * 0.84) / (longest * CELL_W - 1), (height * 0.5) / (lines.length * CELL_H - 2));
  const scale = Math.max(1, Math.floor(fit));
  const blockH = (lines.length * CELL_H - 2) * scale;
  const top = Math.round((height - blockH) / 2);
  const spans = lines.map((line, i) => {
    const w = (line.length * CELL_W - 1) * scale;
    return textSpan(line, Math.round((width - w) / 2), top + i * CELL_H * scale, scale);
  });
  if (caption) {
    const small = Math.max(1, Math.floor(Math.min(scale / 3, width / ((caption.length + 2) * CELL_W))));
    spans.push(textSpan(drawable(caption), 2 * small, height - (GLYPH_HEIGHT + 2) * small, small));
  }
  return spans;
}

/** Marks pixel x of picture line y 2 = text, 1 = shadow, 0 = background; false when all are 0. */
function paintText(spans, y, marks) {
  marks.fill(0);
  let any = false;
  for (const s of spans) {
    const d = s.shadow;
    if (y < s.y || y >= s.y + s.height + d) continue;
    any = true;
    const textRow = y < s.y + s.height ? s.rows[Math.floor((y - s.y) / s.scale)] : null;
    const shadowRow = y >= s.y + d ? s.rows[Math.floor((y - s.y - d) / s.scale)] : null;
    const end = Math.min(marks.length, s.x + s.width + d);
    for (let x = Math.max(0, s.x); x < end; x++) {
      const dx = x - s.x;
      if (textRow && dx < s.width && textRow[dx]) marks[x] = 2;
      else if (shadowRow && dx >= d && shadowRow[dx - d] && marks[x] === 0) marks[x] = 1;
    }
  }
  return any;
}

/**
 * The two colours of a picture's gradient, from a hash of its seed (the result's file name): its
 * top-left pixel is `from`. What tests may rely on: the same seed, the same colours.
 */
function coloursOf(seed) {
  const hash = crypto.createHash('sha256').update(String(seed)).digest();
  const hue = (hash[0] / 255) * 360;
  return { from: hsl(hue, 0.65, 0.55), to: hsl((hue + 40 + (hash[1] % 80)) % 360, 0.7, 0.22) };
}

/** A PNG of exactly width × height: gradient from the seed, title words, caption. */
function picturePng({ width, height, title, caption = '', seed = title }) {
  const { from, to } = coloursOf(seed);
  const shadow = to.map((v) => Math.round(v * 0.35));
  const spans = layout(width, height, title, caption);
  const marks = new Uint8Array(width);
  let lastHadText = true;
  // Colour = from + (to - from) · t with t = 0.65·x/width + 0.35·y/height; y in steps of BAND lines,
  // so that the lines of a band repeat (cheap to encode) and the steps stay invisible.
  const xPart = [0, 1, 2].map((c) => Float64Array.from({ length: width }, (_, x) => ((to[c] - from[c]) * 0.65 * x) / Math.max(1, width - 1)));
  return rgbPng(width, height, (y, row) => {
    const band = y - (y % BAND);
    const hasText = paintText(spans, y, marks);
    if (y % BAND !== 0 && !hasText && !lastHadText) return; // the line before, unchanged
    lastHadText = hasText;
    const base = [0, 1, 2].map((c) => from[c] + ((to[c] - from[c]) * 0.35 * band) / Math.max(1, height - 1));
    for (let x = 0, i = 0; x < width; x++, i += 3) {
      const mark = marks[x];
      if (mark === 2) {
        row[i] = 250;
        row[i + 1] = 250;
        row[i + 2] = 245;
      } else if (mark === 1) {
        row[i] = shadow[0];
        row[i + 1] = shadow[1];
        row[i + 2] = shadow[2];
      } else {
        row[i] = base[0] + xPart[0][x];
        row[i + 1] = base[1] + xPart[1][x];
        row[i + 2] = base[2] + xPart[2][x];
      }
    }
  });
}

module.exports = { picturePng, titleLines, coloursOf };
