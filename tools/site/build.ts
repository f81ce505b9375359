/**
 * `npm run build` (deploy build: refuses to build without real platform and editor settings),
 * `npm run build:local` (`--local`: against the local emulator, clearly marked) and
 * `npm run build:preview` (`--preview`: the editor preview export). `--force` rebuilds even when fresh.
 */
import { ensureBuild, PREVIEW_TARGET } from '../../build/site/build-site';
import { runCli } from '../cli';

runCli(async () => {
  const target = process.argv.includes('--preview') ? PREVIEW_TARGET : { outDir: 'out' };
  const built = await ensureBuild(target, {
    force: process.argv.includes('--force'),
    forDeploy: !process.argv.includes('--local'),
  });
  console.log(built ? `Built ${target.outDir}/` : `${target.outDir}/ is up to date`);
});
