/**
 * `npm run build` (deploy build: refuses to build without real platform and editor settings),
 * `npm run build:local` (`--local`: against the local emulator, clearly marked) and
 * `npm run build:preview` (`--preview`: the editor preview export). `--force` rebuilds even when fresh.
 *
 * A deploy build takes the app id of the linked Base44 app (VITE_BASE44_APP_ID from
 * `base44 site deploy`, or base44/.app.jsonc) when NEXT_PUBLIC_PLATFORM_APP_ID is unset, and stops
 * when they disagree (build-steps/site/linked-app.ts). The link is read from the working directory, the
 * project root where npm and the vendor CLI run the build.
 */
import { DeploySettingsError, ensureBuild, PREVIEW_TARGET } from '../../build-steps/site/build-site';
import { APP_LINK_FILE, linkedAppSettings } from '../../build-steps/site/linked-app';
import { readBuildEnv } from '../../lib/config/env';
import { runCli } from '../cli';

runCli(async () => {
  const target = process.argv.includes('--preview') ? PREVIEW_TARGET : { outDir: 'out' };
  const forDeploy = !process.argv.includes('--local');
  if (forDeploy) {
    const linked = linkedAppSettings(process.env, process.cwd());
    Object.assign(process.env, linked.settings);
    if (linked.description) console.log(`Deploy build for ${linked.description}`);
  }
  try {
    const built = await ensureBuild(target, { force: process.argv.includes('--force'), forDeploy });
    console.log(built ? `Built ${target.outDir}/` : `${target.outDir}/ is up to date`);
  } catch (error) {
    if (error instanceof DeploySettingsError && !readBuildEnv().appId) {
      throw new DeploySettingsError(
        `${error.message}\nTo build for your Base44 app, link this folder: copy base44/.app.jsonc.example to ${APP_LINK_FILE} with your app id, or run \`npx base44 link\`.`,
      );
    }
    throw error;
  }
});
