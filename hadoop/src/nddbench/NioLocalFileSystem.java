/*
 * Hadoop's local file system (file://) for the job server, with its permission calls made by
 * java.nio in the JVM instead of by a forked command.
 *
 * Why: without Hadoop's native library (libhadoop.so, which a Hadoop installation ships and
 * Maven Central does not), RawLocalFileSystem falls back to the shell for every permission: a
 * `chmod` for each file and folder it creates, an `ls -ld` for each permission it reads, a
 * `readlink` for each link status. A local-mode streaming job forked about 78 such processes
 * (62 chmod, 6 ls, 8 readlink, 2 ln; JFR's jdk.ProcessStart events), about a quarter of a
 * small job's CPU (docs/performance.md). NativeIO does the same system calls in process, and so
 * does java.nio: permissions are set and read, and links read, as the shell would, without
 * a process each. Every byte Hadoop reads and writes still goes through its own
 * RawLocalFileSystem, ChecksumFileSystem and output committer: only these three calls differ.
 *
 * The job server names these classes in `fs.file.impl` (FileSystem) and
 * `fs.AbstractFileSystem.file.impl` (FileContext, used by the distributed cache).
 */
package nddbench;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumFs;
import org.apache.hadoop.fs.DelegateToFileSystem;
import org.apache.hadoop.fs.FSLinkResolver;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FsConstants;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.local.LocalConfigKeys;
import org.apache.hadoop.fs.permission.FsPermission;

/** `fs.file.impl`: Hadoop's LocalFileSystem (checksums) over {@link Raw}. */
public class NioLocalFileSystem extends LocalFileSystem {
  public NioLocalFileSystem() {
    super(new Raw());
  }

  /** RawLocalFileSystem with setPermission, permissions read and link status by java.nio. */
  public static class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      // as NativeIO.POSIX.chmod: the permission bits of user, group and other (no sticky bit here)
      Files.setPosixFilePermissions(pathToFile(p).toPath(), posix(permission));
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
      return withPermission(super.getFileStatus(f), pathToFile(f));
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
      FileStatus[] statuses = super.listStatus(f);
      if (statuses == null) return null;
      for (int i = 0; i < statuses.length; i++) statuses[i] = withPermission(statuses[i], pathToFile(statuses[i].getPath()));
      return statuses;
    }

    /** As RawLocalFileSystem's (deprecatedGetFileLinkStatusInternal, then the target qualified), with the link read by java.nio. */
    @Override
    public FileStatus getFileLinkStatus(Path f) throws IOException {
      java.nio.file.Path file = new File(f.toString()).toPath();
      if (!Files.isSymbolicLink(file)) return getFileStatus(f);
      Path target = new Path(Files.readSymbolicLink(file).toString());
      FileStatus link;
      try {
        FileStatus s = getFileStatus(f);
        link = new FileStatus(s.getLen(), false, s.getReplication(), s.getBlockSize(), s.getModificationTime(), s.getAccessTime(), s.getPermission(), s.getOwner(), s.getGroup(), target, f);
      } catch (FileNotFoundException dangling) {
        link = new FileStatus(0, false, 0, 0, 0, 0, FsPermission.getDefault(), "", "", target, f);
      }
      link.setSymlink(FSLinkResolver.qualifySymlinkTarget(getUri(), link.getPath(), link.getSymlink()));
      return link;
    }

    /**
     * The status with owner, group and permission read by stat(2), as NativeIO reads them
     * (RawLocalFileSystem's own status runs `ls -ld` when they are first asked for).
     */
    private static FileStatus withPermission(FileStatus s, File file) throws IOException {
      PosixFileAttributes a = Files.readAttributes(file.toPath(), PosixFileAttributes.class);
      return new FileStatus(s.getLen(), s.isDirectory(), s.getReplication(), s.getBlockSize(), s.getModificationTime(), s.getAccessTime(), fsPermission(a.permissions()), a.owner().getName(), a.group().getName(), s.getPath());
    }
  }

  /** `fs.AbstractFileSystem.file.impl`: as Hadoop's LocalFs (checksums over the raw one), over {@link Raw}. */
  public static class Fs extends ChecksumFs {
    public Fs(URI uri, Configuration conf) throws IOException, URISyntaxException {
      super(new RawFs(uri, conf));
    }
  }

  /** As Hadoop's RawLocalFs, delegating to {@link Raw}. */
  public static class RawFs extends DelegateToFileSystem {
    public RawFs(URI uri, Configuration conf) throws IOException, URISyntaxException {
      super(uri, new Raw(), conf, FsConstants.LOCAL_FS_URI.getScheme(), false);
    }

    @Override
    public int getUriDefaultPort() {
      return -1; // no default port for file:///
    }

    @Override
    @Deprecated
    public FsServerDefaults getServerDefaults() throws IOException {
      return LocalConfigKeys.getServerDefaults();
    }

    @Override
    public FsServerDefaults getServerDefaults(Path f) throws IOException {
      return LocalConfigKeys.getServerDefaults();
    }

    @Override
    public boolean isValidName(String src) {
      return true; // different local file systems accept different names
    }
  }

  private static final PosixFilePermission[] BITS = {
    PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
    PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
    PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
  };

  static Set<PosixFilePermission> posix(FsPermission permission) {
    int mode = permission.toShort();
    Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
    for (int bit = 0; bit < BITS.length; bit++) if ((mode & (1 << bit)) != 0) set.add(BITS[bit]);
    return set;
  }

  static FsPermission fsPermission(Set<PosixFilePermission> set) {
    int mode = 0;
    for (int bit = 0; bit < BITS.length; bit++) if (set.contains(BITS[bit])) mode |= 1 << bit;
    return new FsPermission((short) mode);
  }
}
