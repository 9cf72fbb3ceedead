// Reads every table of a Transmute output through another language's Parquet and
// Arrow implementations: parquet-wasm (the Rust crates parquet and arrow, compiled
// to WebAssembly) decodes each shard, Arrow JS (apache-arrow) reads the result from
// Arrow IPC. Prints one JSON object: per table the rows read, the NULLs per column,
// the encodings of each column in the file metadata, and the key-value metadata.
// Usage: node scripts/arrow/read.mjs OUT   (npm install in scripts/arrow first)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ParquetFile, readParquet, Encoding } from "parquet-wasm/node";
import { tableFromIPC } from "apache-arrow";

const out = process.argv[2];
if (!out) {
  console.error("usage: node read.mjs OUT");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
const result = { schema_version: manifest.schema_version, tables: {} };
for (const [table, shards] of Object.entries(manifest.shards)) {
  const t = { rows: 0, nulls: {}, encodings: {}, metadata: {} };
  for (const shard of shards) {
    const bytes = new Uint8Array(readFileSync(join(out, shard)));
    const arrow = tableFromIPC(readParquet(bytes).intoIPCStream());
    t.rows += arrow.numRows;
    for (const field of arrow.schema.fields) {
      const col = arrow.getChild(field.name);
      t.nulls[field.name] = (t.nulls[field.name] ?? 0) + col.nullCount;
    }
    const file = await ParquetFile.fromFile(new Blob([bytes]));
    const meta = file.metadata();
    for (const [k, v] of meta.fileMetadata().keyValueMetadata()) {
      if (k.startsWith("transmute.")) t.metadata[k] = v;
    }
    for (const rg of meta.rowGroups()) {
      for (const c of rg.columns()) {
        const name = c.columnPath().join(".");
        const set = new Set(t.encodings[name] ?? []);
        for (const e of c.encodings()) set.add(Encoding[e]);
        t.encodings[name] = [...set].sort();
      }
    }
  }
  result.tables[table] = t;
}
console.log(JSON.stringify(result, null, 1));
