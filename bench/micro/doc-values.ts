/**
 * Micro-benchmark: doc values random access over the npm corpus (227k records): what sorting and
 * aggregations do, one get per document. Not a test; prints a table and a JSON line.
 *
 *   npx tsc -p . --outDir /tmp/build-codec && node /tmp/build-codec/bench/micro/doc-values.js
 *
 * Columns: `downloads` (long, every doc), `downloads` of every other doc (sparse, rank lookups),
 * `downloads / 7` (double, fractional: stored raw), `version` (keyword, sorted ords).
 */
import { DocValuesWriter } from '../../src/engine/codec/docvalues/doc-values-writer.js';
import { DocValuesReader } from '../../src/engine/codec/docvalues/doc-values-reader.js';
import { readCorpusLines } from './corpus.js';

const SEGMENT_ID = Buffer.alloc(16, 3);
const records = readCorpusLines(Infinity, 'npm').map((line) => JSON.parse(line.toString('utf8')) as { downloads: number; version: string });
const maxDoc = records.length;

function best(fn: () => number, runs = 15): { seconds: number; result: number } {
  let seconds = Infinity;
  let result = 0;
  for (let run = 0; run < runs; run++) {
    const start = process.hrtime.bigint();
    result = fn();
    seconds = Math.min(seconds, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return { seconds, result };
}

const allDocs = Int32Array.from({ length: maxDoc }, (_, i) => i);
const everyOther = allDocs.filter((doc) => doc % 2 === 0);
const writeStart = process.hrtime.bigint();
const writer = new DocValuesWriter(SEGMENT_ID, maxDoc);
writer.addNumeric('downloads', { kind: 'long', docs: allDocs, values: Float64Array.from(records, (r) => r.downloads) });
writer.addNumeric('sparse', { kind: 'long', docs: everyOther, values: Float64Array.from(everyOther, (doc) => records[doc]!.downloads) });
writer.addNumeric('ratio', { kind: 'double', docs: allDocs, values: Float64Array.from(records, (r) => r.downloads / 7) });
writer.addSorted('version', { docs: allDocs, values: records.map((r) => r.version) });
const { bytes } = writer.finish();
const writeSeconds = Number(process.hrtime.bigint() - writeStart) / 1e9;
const reader = new DocValuesReader(bytes, 'bench.dvd', SEGMENT_ID, maxDoc);

const downloads = reader.numeric('downloads')!;
const sparse = reader.numeric('sparse')!;
const ratio = reader.numeric('ratio')!;
const version = reader.sorted('version')!;

const sumLong = best(() => {
  let sum = 0;
  for (let doc = 0; doc < maxDoc; doc++) sum += downloads.get(doc);
  return sum;
});
const sumSparse = best(() => {
  let sum = 0;
  for (let doc = 0; doc < maxDoc; doc++) if (sparse.has(doc)) sum += sparse.get(doc);
  return sum;
});
const sumDouble = best(() => {
  let sum = 0;
  for (let doc = 0; doc < maxDoc; doc++) sum += ratio.get(doc);
  return sum;
});
const ordCounts = new Int32Array(version.valueCount);
const termsAgg = best(() => {
  ordCounts.fill(0);
  for (let doc = 0; doc < maxDoc; doc++) {
    const ord = version.ord(doc);
    if (ord >= 0) ordCounts[ord]!++;
  }
  return ordCounts[0]!;
});
const sortByValue = best(() => {
  // Sort every doc by a long field, the way a sort on a numeric field ranks a whole segment.
  const keys = new Float64Array(maxDoc);
  for (let doc = 0; doc < maxDoc; doc++) keys[doc] = downloads.get(doc);
  const order = Int32Array.from(allDocs).sort((a, b) => keys[b]! - keys[a]! || a - b);
  return order[0]!;
}, 5);
const top10Terms = best(() => {
  const top = [...ordCounts.keys()].sort((a, b) => ordCounts[b]! - ordCounts[a]!).slice(0, 10);
  return top.map((ord) => version.lookupOrdString(ord)).length;
}, 5);

const perDoc = (seconds: number): string => `${((seconds / maxDoc) * 1e9).toFixed(1)} ns/doc, ${(seconds * 1e3).toFixed(2)} ms`;
console.log(`npm corpus: ${maxDoc} docs; doc values file ${bytes.length} bytes (written in ${(writeSeconds * 1e3).toFixed(0)} ms)`);
console.log(`  long column ${downloads.kind}, ${downloads.kind === 'long' ? `exact=${downloads.exactAsNumber}` : ''}; ${version.valueCount} distinct versions`);
console.log(`  sum of a long column (get per doc):        ${perDoc(sumLong.seconds)}`);
console.log(`  sum of a sparse long column (has + get):   ${perDoc(sumSparse.seconds)}`);
console.log(`  sum of a double column (raw float64):      ${perDoc(sumDouble.seconds)}`);
console.log(`  terms aggregation counts over ords:        ${perDoc(termsAgg.seconds)}`);
console.log(`  sort all docs by the long column:          ${perDoc(sortByValue.seconds)}`);
console.log(`  top 10 versions -> strings (lookupOrd):    ${(top10Terms.seconds * 1e3).toFixed(2)} ms`);
console.log(
  JSON.stringify({
    maxDoc,
    fileBytes: bytes.length,
    writeMillis: writeSeconds * 1e3,
    nsPerDoc: {
      long: (sumLong.seconds / maxDoc) * 1e9,
      sparseLong: (sumSparse.seconds / maxDoc) * 1e9,
      double: (sumDouble.seconds / maxDoc) * 1e9,
      ordCount: (termsAgg.seconds / maxDoc) * 1e9,
      sortByLong: (sortByValue.seconds / maxDoc) * 1e9,
    },
    checks: [sumLong.result, sumSparse.result, sumDouble.result, termsAgg.result, sortByValue.result],
  }),
);
