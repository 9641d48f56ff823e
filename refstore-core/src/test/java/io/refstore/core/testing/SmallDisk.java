package io.refstore.core.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

/**
 * A real file system of its own for a test that must run out of space: a {@code tmpfs} of
 * a few megabytes ({@link #tmpfs}), or an ext4 file system on a loop device whose backing
 * file lives on such a {@code tmpfs} ({@link #thinExt4}). The ext4 file system believes
 * it has room: writes land in the page cache and succeed, and only writing them back to
 * the full device fails, so {@code fsync} reports the error (as a thinly provisioned or
 * failing disk does in production). Mounting needs root, which the build machine and CI
 * have; without it the test fails, saying why. Close to unmount.
 */
public final class SmallDisk implements AutoCloseable {

	private final List<Path> mounts = new ArrayList<>();

	private final Path root;

	private Path filler;

	private SmallDisk(Path root) {
		this.root = root;
	}

	/** Mounts a {@code tmpfs} of {@code bytes} at {@code dir} (created). */
	public static SmallDisk tmpfs(Path dir, long bytes) throws IOException {
		Files.createDirectories(dir);
		mount(dir, "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", dir.toString());
		SmallDisk disk = new SmallDisk(dir);
		disk.mounts.add(dir);
		return disk;
	}

	/**
	 * Mounts, at {@code dir/fs}, ext4 on a loop device over a sparse image of
	 * {@code imageBytes} kept on a {@code tmpfs} of {@code backingBytes} at
	 * {@code dir/backing}: {@link #fillBacking} then leaves the device no room behind the
	 * file system's back.
	 */
	public static SmallDisk thinExt4(Path dir, long backingBytes, long imageBytes) throws IOException {
		Path backing = Files.createDirectories(dir.resolve("backing"));
		Path fs = Files.createDirectories(dir.resolve("fs"));
		SmallDisk disk = new SmallDisk(fs);
		disk.filler = backing.resolve("filler");
		try {
			mount(backing, "-t", "tmpfs", "-o", "size=" + backingBytes, "tmpfs", backing.toString());
			disk.mounts.add(backing);
			Path image = backing.resolve("disk.img");
			try (FileChannel channel = FileChannel.open(image, StandardOpenOption.CREATE_NEW,
					StandardOpenOption.WRITE)) {
				channel.position(imageBytes - 1).write(ByteBuffer.wrap(new byte[1]));
			}
			run("mkfs.ext4", "-q", "-F", "-E", "nodiscard", image.toString());
			// errors=continue: the failed write-back must reach the writer as an error,
			// not turn the disk read-only
			mount(fs, "-t", "ext4", "-o", "loop,errors=continue", image.toString(), fs.toString());
			disk.mounts.add(fs);
			return disk;
		}
		catch (IOException | RuntimeException | Error ex) {
			disk.close();
			throw ex;
		}
	}

	/** Where the file system is mounted. */
	public Path root() {
		return this.root;
	}

	/**
	 * Fills the {@code tmpfs} so that about {@code free} bytes are left (in whole pages).
	 */
	public void fill(long free) throws IOException {
		fillAt(this.root.resolve("filler"), free);
	}

	/**
	 * Fills the loop device's backing {@code tmpfs} completely (writes already made
	 * durable stay readable).
	 */
	public void fillBacking() throws IOException {
		fillBacking(0);
	}

	/**
	 * Fills the loop device's backing {@code tmpfs} so that about {@code free} bytes are
	 * left: the first writes back still succeed, the rest fail.
	 */
	public void fillBacking(long free) throws IOException {
		run("sync");
		fillAt(this.filler, free);
	}

	/** Gives a {@link #tmpfs} a new size (a remount: what it holds stays). */
	public void resize(long bytes) throws IOException {
		run("mount", "-o", "remount,size=" + bytes, this.root.toString());
	}

	/** Removes what {@link #fill} or {@link #fillBacking} wrote. */
	public void unfill() throws IOException {
		Files.deleteIfExists(this.root.resolve("filler"));
		if (this.filler != null) {
			Files.deleteIfExists(this.filler);
		}
	}

	private static void fillAt(Path file, long free) throws IOException {
		long usable = Files.getFileStore(file.getParent()).getUsableSpace();
		long size = Math.max(0, usable - free);
		byte[] block = new byte[1 << 16];
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
			long written = 0;
			while (written < size) {
				int n = (int) Math.min(block.length, size - written);
				written += channel.write(ByteBuffer.wrap(block, 0, n));
			}
		}
		catch (IOException ex) {
			if (!String.valueOf(ex.getMessage()).contains("No space left")) {
				throw ex;
			}
			// filled up to the last page: exactly what was asked for
		}
	}

	@Override
	public void close() throws IOException {
		IOException failure = null;
		// the last mounted first: ext4 before the tmpfs its image lives on
		for (int i = this.mounts.size() - 1; i >= 0; i--) {
			String mount = this.mounts.get(i).toString();
			try {
				// the loop device under an ext4 just unmounted lets go of its image on
				// the
				// tmpfs a moment later, later on a loaded machine: "target is busy" until
				// then
				Awaitility.await("umount " + mount)
					.atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(100))
					.ignoreExceptionsMatching((ex) -> ex instanceof IOException && ex.getMessage().contains("busy"))
					.until(() -> {
						run("umount", mount);
						return true;
					});
			}
			catch (RuntimeException ex) {
				// the timeout, or an umount that failed otherwise
				if (failure == null) {
					failure = new IOException("umount " + mount + ": " + ex.getMessage(), ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	private static void mount(Path dir, String... args) throws IOException {
		List<String> command = new ArrayList<>(List.of("mount"));
		command.addAll(List.of(args));
		try {
			run(command.toArray(String[]::new));
		}
		catch (IOException ex) {
			throw new AssertionError("cannot mount a small file system at " + dir + " (the disk-full tests need root, "
					+ "as on the build machine and CI, and mount, mkfs.ext4 and loop devices): " + ex.getMessage(), ex);
		}
	}

	private static void run(String... command) throws IOException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		try {
			if (!process.waitFor(2, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new IOException("timed out: " + String.join(" ", command));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted: " + String.join(" ", command), ex);
		}
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		if (process.exitValue() != 0) {
			throw new IOException(String.join(" ", command) + " exited with " + process.exitValue() + ": " + output);
		}
	}

}
