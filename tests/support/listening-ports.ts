import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The TCP ports a process listens on, read from Linux's /proc the way any local process (or an
 * attacker on the same machine) can find them: the socket inodes among the process's open files,
 * matched against the kernel's TCP tables in state LISTEN (0A).
 */
export function listeningPortsOf(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })();
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = readFileSync(table, 'utf8').trim().split('\n').slice(1);
    for (const row of rows) {
      const [, local, , state, , , , , , inode] = row.trim().split(/\s+/);
      if (state === '0A' && inode !== undefined && inodes.has(inode) && local !== undefined) {
        ports.add(Number.parseInt(local.split(':')[1] ?? '', 16));
      }
    }
  }
  return [...ports];
}
