package io.refstore.core.io;

import java.io.Closeable;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;

/**
 * Tells cheaply whether a directory's entries may have changed since a moment: creating,
 * deleting or renaming an entry (such as git's
 * {@code rename("packed-refs.lock", "packed-refs")}) updates the directory's modification
 * time, which one {@code fstat} of a held directory handle reads, without the path walk
 * of a {@code stat} by name. A file that is only ever replaced by rename, never written
 * in place, is then known unchanged while its directory is.
 *
 * <p>
 * Protocol: the caller takes a token by {@link #read()} <em>before</em> it checks its
 * file by name, and keeps the token with the state it read (so the state is at least as
 * new as the token); later, {@link #unchanged(Token)} tells whether that state is still
 * current. File times come from a coarse clock, so (as git does for its index's "racily
 * clean" entries) a token of a directory modified within {@link #RACY} of its reading is
 * never trusted: a later change in the same clock tick could leave the time equal. A
 * directory handle that no longer names the path's directory (removed and made again) is
 * replaced on the next {@link #read()}.
 *
 * <p>
 * The handle is opened by the first {@link #read()} and closed by {@link #close()}, or
 * when the stamp becomes unreachable. Where the platform has no directory handles,
 * {@link #unchanged()} is always {@code false}. Thread-safe.
 */
public final class DirectoryStamp implements Closeable {

	/** How recent a directory modification makes a token untrustworthy. */
	static final Duration RACY = Duration.ofSeconds(2);

	private final Path dir;

	private Handle handle;

	private boolean closed;

	/** A stamp of {@code dir}; opens nothing yet. */
	public DirectoryStamp(Path dir) {
		this.dir = Objects.requireNonNull(dir, "dir");
	}

	/**
	 * Whether the directory is known unchanged since {@code token} was read: one
	 * {@code fstat}.
	 * @param token from {@link #read()}, or {@code null}
	 * @return {@code false} if it changed, the token is {@code null}, or it cannot be
	 * told
	 */
	public synchronized boolean unchanged(Token token) {
		if (token == null || this.handle == null) {
			return false;
		}
		try {
			BasicFileAttributes now = this.handle.attributes();
			return now.lastModifiedTime().toInstant().equals(token.modified)
					&& Objects.equals(now.fileKey(), token.key);
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Reads the directory's state now, (re)opening the handle if needed, before the
	 * caller checks its files.
	 * @return the token to keep with the state the caller reads next, or {@code null} if
	 * the state cannot be told (no handle, directory missing, or modified too recently)
	 */
	public synchronized Token read() {
		if (this.closed) {
			return null;
		}
		try {
			Object pathKey = Files.readAttributes(this.dir, BasicFileAttributes.class).fileKey();
			if (this.handle != null && !Objects.equals(this.handle.attributes().fileKey(), pathKey)) {
				dropHandle();
			}
			if (this.handle == null) {
				this.handle = Handle.open(this, this.dir);
				if (this.handle == null) {
					return null;
				}
			}
			long readAt = System.currentTimeMillis();
			BasicFileAttributes attributes = this.handle.attributes();
			if (pathKey == null || !pathKey.equals(attributes.fileKey())
					|| attributes.lastModifiedTime().toMillis() > readAt - RACY.toMillis()) {
				return null;
			}
			return new Token(attributes.lastModifiedTime().toInstant(), attributes.fileKey());
		}
		catch (IOException | RuntimeException ex) {
			dropHandle();
			return null;
		}
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		dropHandle();
	}

	private void dropHandle() {
		if (this.handle != null) {
			this.handle.cleanable.clean();
			this.handle = null;
		}
	}

	/** The directory's modification time and identity at a {@link #read()}. */
	public static final class Token {

		private final java.time.Instant modified;

		private final Object key;

		private Token(java.time.Instant modified, Object key) {
			this.modified = modified;
			this.key = key;
		}

	}

	/** An open directory and the cleaner action that closes it. */
	private static final class Handle {

		/**
		 * Made with the first handle (its thread is not worth starting for a process that
		 * never opens one).
		 */
		private static final Cleaner CLEANER = Cleaner.create();

		private final BasicFileAttributeView view;

		private final Cleaner.Cleanable cleanable;

		private Handle(BasicFileAttributeView view, Cleaner.Cleanable cleanable) {
			this.view = view;
			this.cleanable = cleanable;
		}

		/** Opens {@code dir}; {@code null} if the platform gives no directory handles. */
		static Handle open(DirectoryStamp owner, Path dir) throws IOException {
			DirectoryStream<Path> stream;
			try {
				stream = Files.newDirectoryStream(dir);
			}
			catch (NoSuchFileException ex) {
				return null;
			}
			if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
				stream.close();
				return null;
			}
			// the view without a file reads the open directory itself (fstat)
			BasicFileAttributeView view = secure.getFileAttributeView(BasicFileAttributeView.class);
			return new Handle(view, CLEANER.register(owner, new Closer(stream)));
		}

		BasicFileAttributes attributes() throws IOException {
			return this.view.readAttributes();
		}

	}

	/**
	 * Closes a directory stream; refers to nothing else, so that its owner can become
	 * unreachable.
	 */
	private record Closer(DirectoryStream<Path> stream) implements Runnable {

		@Override
		public void run() {
			try {
				this.stream.close();
			}
			catch (IOException ex) {
				// a read-only directory handle: nothing is lost
			}
		}

	}

}
