/**
 * The bootstrap action that puts Node on every node (research doc §1.4): Amazon Linux 2023,
 * the OS of EMR 7.x, packages Node as `nodejs20` with the executable `/usr/bin/node-20`.
 * Bootstrap actions run as the `hadoop` user, hence sudo. The steps call `node-20` directly
 * so that the `alternatives` link does not matter.
 */
export function installNodeScript(pkg: string, binary: string): string {
  return [
    '#!/bin/bash',
    '# ndd-bench: install Node on an EMR node (Amazon Linux 2023). Staged by harness/mapreduce/emr.',
    'set -euxo pipefail',
    `sudo dnf install -y ${pkg}`,
    `sudo alternatives --set node /usr/bin/${binary} || true`,
    `${binary} --version`,
    '',
  ].join('\n');
}
