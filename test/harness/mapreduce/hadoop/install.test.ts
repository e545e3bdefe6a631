/**
 * Where Hadoop's pinned jars are cached and when a cached copy is used: the version comes from
 * the pom, a changed pom gets a folder of its own, and a copy whose manifest does not match its
 * files is not used (so it is fetched again). No Maven here: the manifest is written by hand.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findHadoopJars, HADOOP_POM, hadoopFolder, MINI_CLUSTER_POM, pinnedVersion } from '../../../../harness/mapreduce/hadoop/install.ts';

const root = mkdtempSync(join(tmpdir(), 'hadoop-install-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const env = { NDD_BENCH_HADOOP_DIR: root };

describe('the pinned Hadoop jars', () => {
  it('pins a 3.4 release in hadoop/pom.xml', () => {
    expect(pinnedVersion(readFileSync(HADOOP_POM, 'utf8'))).toMatch(/^3\.4\.\d+$/);
  });

  it("pins the mini cluster's jars at the client's version, in a folder of their own", () => {
    const client = readFileSync(HADOOP_POM, 'utf8');
    const mini = readFileSync(MINI_CLUSTER_POM, 'utf8');
    expect(pinnedVersion(mini)).toBe(pinnedVersion(client));
    expect(mini).toMatch(/<artifactId>hadoop-minicluster<\/artifactId>/);
    expect(hadoopFolder(env, MINI_CLUSTER_POM)).not.toBe(hadoopFolder(env, HADOOP_POM));
  });

  it('keeps a folder per version and pom content under NDD_BENCH_HADOOP_DIR', () => {
    const pom = join(root, 'pom.xml');
    writeFileSync(pom, '<hadoop.version>3.4.9</hadoop.version>');
    const a = hadoopFolder(env, pom);
    writeFileSync(pom, '<hadoop.version>3.4.9</hadoop.version><!-- another artifact -->');
    const b = hadoopFolder(env, pom);
    expect(a.startsWith(join(root, '3.4.9-'))).toBe(true);
    expect(b.startsWith(join(root, '3.4.9-'))).toBe(true);
    expect(a).not.toBe(b);
  });

  it('uses a cached copy only when every jar of its manifest is there with its size', () => {
    const dir = hadoopFolder(env);
    mkdirSync(join(dir, 'lib'), { recursive: true });
    const version = pinnedVersion(readFileSync(HADOOP_POM, 'utf8'));
    const jar = `hadoop-streaming-${version}.jar`;
    writeFileSync(join(dir, 'lib', jar), 'jar bytes');
    const manifest = (bytes: number) => JSON.stringify({ version, pomSha256: 'x', jars: [{ name: jar, bytes, sha256: 'x' }] });
    writeFileSync(join(dir, 'manifest.json'), manifest(9));
    expect(findHadoopJars(env)).toEqual({ version, lib: join(dir, 'lib'), streamingJar: join(dir, 'lib', jar) });
    writeFileSync(join(dir, 'manifest.json'), manifest(10));
    expect(findHadoopJars(env)).toBeUndefined();
    rmSync(join(dir, 'manifest.json'));
    expect(findHadoopJars(env)).toBeUndefined();
  });
});
