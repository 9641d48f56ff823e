package io.refstore.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/** File trees for tests: copies of repositories. */
public final class TestFiles {

	private TestFiles() {
	}

	/**
	 * Copies the tree at {@code from} to {@code to} (made if missing); symbolic links are
	 * copied as links.
	 * @param keepTimes whether files keep their modification times (as an old
	 * repository's do), or get the time of the copy (as files just written)
	 * @return {@code to}
	 */
	public static Path copyTree(Path from, Path to, boolean keepTimes) {
		StandardCopyOption[] options = keepTimes ? new StandardCopyOption[] { StandardCopyOption.COPY_ATTRIBUTES }
				: new StandardCopyOption[0];
		try {
			Files.walkFileTree(from, new SimpleFileVisitor<>() {

				@Override
				public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
					Files.createDirectories(to.resolve(from.relativize(dir).toString()));
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
					Path target = to.resolve(from.relativize(file).toString());
					if (attrs.isSymbolicLink()) {
						Files.createSymbolicLink(target, Files.readSymbolicLink(file));
					}
					else {
						Files.copy(file, target, options);
					}
					return FileVisitResult.CONTINUE;
				}

			});
			return to;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
