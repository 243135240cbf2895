// Prints every string constant (CONSTANT_Utf8) of a Java class file, one JSON string per line: used to take the
// test inputs out of Lucene's WordBreakTest and EmojiTokenizationTest classes (Lucene test-framework jar).
import { readFileSync } from 'node:fs';
const b = readFileSync(process.argv[2]);
let p = 8;
const count = b.readUInt16BE(p); p += 2;
const out = new Set();
for (let i = 1; i < count; i++) {
  const tag = b[p++];
  switch (tag) {
    case 1: {
      const len = b.readUInt16BE(p); p += 2;
      const bytes = b.subarray(p, p + len); p += len;
      let s = '';
      for (let j = 0; j < bytes.length; ) {
        const x = bytes[j];
        if (x < 0x80) { s += String.fromCharCode(x); j++; }
        else if ((x & 0xe0) === 0xc0) { s += String.fromCharCode(((x & 0x1f) << 6) | (bytes[j+1] & 0x3f)); j += 2; }
        else { s += String.fromCharCode(((x & 0x0f) << 12) | ((bytes[j+1] & 0x3f) << 6) | (bytes[j+2] & 0x3f)); j += 3; }
      }
      out.add(s);
      break;
    }
    case 3: case 4: case 9: case 10: case 11: case 12: case 18: case 17: p += 4; break;
    case 5: case 6: p += 8; i++; break;
    case 7: case 8: case 16: case 19: case 20: p += 2; break;
    case 15: p += 3; break;
    default: throw new Error('tag ' + tag);
  }
}
for (const s of out) console.log(JSON.stringify(s));
