package io.refstore.core.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefName;

/**
 * {@link FilesRefStore#fingerprint()}: a digest of the identity (file key, size,
 * modification time) of every file that holds a ref or a reflog: {@code packed-refs},
 * loose refs, root refs and logs (lock files left out). git replaces a ref file by
 * renaming a new one over it and appends to logs, so every write changes one of them.
 *
 * <p>
 * File times come from a coarse clock, and a freed inode can be reused at once: two
 * writes of one ref in the same tick could leave attributes equal to the first's. As git
 * does for its index ("racily clean" entries), a store with a file modified within
 * {@link #RACY} of the reading gets a token of its own that matches nothing, so callers
 * fall back to reading the refs.
 */
final class FilesFingerprint {

	/** How recent a modification makes the fingerprint unusable. */
	static final Duration RACY = Duration.ofSeconds(2);

	private FilesFingerprint() {
	}

	static String of(FilesRefStore store) throws IOException {
		Entries entries = new Entries(Instant.now().minus(RACY));
		Path common = store.options.commonDir();
		Path gitDir = store.options.gitDir();
		entries.add("packed-refs", store.packedFile());
		entries.walk(common, common.resolve("refs"));
		entries.walk(common, common.resolve("logs"));
		if (!gitDir.equals(common)) {
			entries.walk(gitDir, gitDir.resolve("logs"));
		}
		try (var files = Files.newDirectoryStream(gitDir)) {
			for (Path file : files) {
				if (RefName.isRootRef(file.getFileName().toString())) {
					entries.add(file.getFileName().toString(), file);
				}
			}
		}
		return entries.digest();
	}

	/**
	 * The identities of a store's files as they are found, and whether one of them was
	 * modified too recently to tell two writes apart.
	 */
	private static final class Entries {

		private final Instant racyAfter;

		private final List<String> identities = new ArrayList<>();

		private boolean racy;

		Entries(Instant racyAfter) {
			this.racyAfter = racyAfter;
		}

		void add(String name, Path file) throws IOException {
			try {
				add(name, Files.readAttributes(file, BasicFileAttributes.class));
			}
			catch (NoSuchFileException ex) {
				// absent is a state of its own: nothing to add
			}
		}

		void walk(Path base, Path dir) throws IOException {
			if (!Files.isDirectory(dir)) {
				return;
			}
			// as the store lists its refs (regular files only), tolerating files removed
			// while walking: the next fingerprint tells the difference
			FileMoves.forEachFile(dir, (file, attributes) -> {
				if (!file.getFileName().toString().endsWith(".lock")) {
					add(base.relativize(file).toString(), attributes);
				}
			});
		}

		private void add(String name, BasicFileAttributes attributes) {
			Instant modified = attributes.lastModifiedTime().toInstant();
			this.racy |= modified.isAfter(this.racyAfter);
			this.identities.add(name + '\0' + attributes.fileKey() + '\0' + attributes.size() + '\0' + modified);
		}

		/** A token of its own if the store is racy, else the digest of the identities. */
		String digest() {
			MessageDigest sha = sha256();
			if (this.racy) {
				sha.update(UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII));
			}
			this.identities.sort(null);
			for (String entry : this.identities) {
				sha.update(entry.getBytes(StandardCharsets.UTF_8));
				sha.update((byte) '\n');
			}
			return HexFormat.of().formatHex(sha.digest());
		}

	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is part of every Java platform", ex);
		}
	}

}
