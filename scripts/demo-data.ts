import { runDemoDataCli } from './src/demo-data/cli';

/** `npm run demo-data -- --hosts 10 --days 7`: demo hosts in the stores `npm start` reads (see --help). */
process.exitCode = await runDemoDataCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
