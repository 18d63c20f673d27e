// `npm run bench:campaign`: the quick poll benchmark (scripts/bench-campaign.ts) by default, or with
export {};
// `-- --type birthday` the birthday greeting benchmark (scripts/bench-birthday.ts). Other flags pass through.
const at = process.argv.indexOf("--type");
const type = at >= 0 ? process.argv[at + 1] : "poll";
if (type === "birthday") await import("./bench-birthday");
else if (type === "poll") await import("./bench-campaign");
else {
  console.error(`Unknown --type ${type}: use poll (the default) or birthday`);
  process.exit(2);
}
