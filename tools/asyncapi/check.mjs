// docs/asyncapi.json as the AsyncAPI initiative's parser reads it: every diagnostic of
// severity error fails (the exit code), the others are printed.
import { readFile } from "node:fs/promises";
import { Parser } from "@asyncapi/parser";

const path = process.argv[2] ?? "../../docs/asyncapi.json";
const text = await readFile(path, "utf8");
const { document, diagnostics } = await new Parser().parse(text, { source: path });
const SEVERITY = ["error", "warning", "info", "hint"];
const errors = diagnostics.filter((d) => d.severity === 0);
for (const d of diagnostics) {
  console.log(`${SEVERITY[d.severity]} ${d.code} at ${d.path.join(".")}: ${d.message}`);
}
console.log(`${path}: ${errors.length} errors, ${diagnostics.length - errors.length} other diagnostics` +
  (document ? `, ${document.allMessages().length} messages` : ", not parsed"));
process.exit(errors.length === 0 && document ? 0 : 1);
