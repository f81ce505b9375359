/**
 * Every server configuration written from the policy's rules, and where each goes: into the
 * exported folder (`folder`: the host reads it from what is uploaded) or beside the other server
 * snippets in deploy/generated/ (`generated`: it goes into the server's own configuration; `<folder>`
 * in its name is the export folder's name, as for the nginx snippet).
 */
import type { HeaderRule } from '../policy';
import { toApacheSnippet, toHtaccess } from './apache';
import { toCaddySnippet } from './caddy';
import { toFirebaseJson } from './firebase';
import { toServeJson, toVercelJson } from './vercel';

export interface HostConfiguration {
  place: 'folder' | 'generated';
  name: string;
  text: string;
}

/** `exportPaths`: every file of the export as a URL path, for the configurations that list them. */
export function hostConfigurations(rules: HeaderRule[], exportPaths: readonly string[]): HostConfiguration[] {
  return [
    { place: 'folder', name: '.htaccess', text: toHtaccess(rules) },
    { place: 'folder', name: 'firebase.json', text: toFirebaseJson(rules, exportPaths) },
    { place: 'folder', name: 'vercel.json', text: toVercelJson(rules) },
    { place: 'folder', name: 'serve.json', text: toServeJson(rules) },
    { place: 'generated', name: 'apache-<folder>.conf', text: toApacheSnippet(rules) },
    { place: 'generated', name: 'caddy-<folder>.caddy', text: toCaddySnippet(rules) },
  ];
}
