// Reads a Transmute output with DuckDB (its Node binding, the same engine as the
// duckdb CLI): per table the rows, the key-value metadata of its files, the
// encodings of its columns, and for the evaluate job the pass rates from the
// verdicts table beside those of the scores table. Prints one JSON object.
// Usage: node scripts/arrow/duckdb.mjs OUT   (npm install in scripts/arrow first)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";

const out = process.argv[2];
if (!out) {
  console.error("usage: node duckdb.mjs OUT");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
const db = await DuckDBInstance.create(":memory:");
const con = await db.connect();
const q = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();
const files = (t) => "[" + manifest.shards[t].map((s) => `'${join(out, s).replaceAll("'", "''")}'`).join(",") + "]";
const result = { tables: {} };
for (const t of Object.keys(manifest.shards)) {
  const [{ n }] = await q(`select count(*) as n from read_parquet(${files(t)})`);
  const meta = await q(`select distinct decode(key) as k, decode(value) as v from parquet_kv_metadata(${files(t)}) order by 1`);
  const enc = await q(`select path_in_schema as col, string_agg(distinct encodings, ',') as enc from parquet_metadata(${files(t)}) group by 1 order by 1`);
  result.tables[t] = { rows: Number(n), metadata: Object.fromEntries(meta.map((r) => [r.k, r.v])), encodings: Object.fromEntries(enc.map((r) => [r.col, r.enc])) };
}
if (manifest.shards.verdicts) {
  result.pass_rates = await q(`
    with v as (
      select translator, src_lang, tgt_lang, oracle, avg(pass::int) as pass_rate,
        avg(pass::int) filter (where translation = 'translated') as pass_rate_attempted
      from read_parquet(${files("verdicts")}) where sample = 0 and excluded is null group by all),
    s as (
      select translator, src_lang, tgt_lang, oracle,
        max(value) filter (where metric = 'pass_rate') as pass_rate,
        max(value) filter (where metric = 'pass_rate_attempted') as pass_rate_attempted
      from read_parquet(${files("scores")}) where subset = 'all' group by all)
    select v.*, s.pass_rate as scores_pass_rate, s.pass_rate_attempted as scores_pass_rate_attempted
    from v join s using (translator, src_lang, tgt_lang, oracle) order by all`);
}
console.log(JSON.stringify(result, null, 1));
