package io.refstore.core.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Loose objects written by refstore, judged by real git: the ids git computes for the
 * same bytes, contents git reads back, read-only files, and a second write of an object
 * leaving the first in place.
 */
class LooseObjectWriterIT {

	@TempDir
	Path temp;

	@Test
	void gitReadsWhatTheWriterWrites() throws Exception {
		TempRepo repo = TempRepo.init(GitCli.system(), this.temp.resolve("repo"), "--bare");
		LooseObjectWriter writer = new LooseObjectWriter(repo.gitDir().resolve("objects"));
		byte[] text = "hello\n".getBytes(StandardCharsets.UTF_8);
		ObjectId blob = writer.write(ObjectType.BLOB, text);
		assertThat(blob.name()).isEqualTo(repo.run(text, "hash-object", "--stdin").requireOk().stdout().trim());
		assertThat(repo.git("cat-file", "-p", blob.name())).isEqualTo("hello\n");
		Path file = repo.gitDir()
			.resolve("objects")
			.resolve(blob.name().substring(0, 2))
			.resolve(blob.name().substring(2));
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("r--r--r--");
		long written = Files.getLastModifiedTime(file).toMillis();
		assertThat(writer.write(ObjectType.BLOB, text)).isEqualTo(blob);
		assertThat(Files.getLastModifiedTime(file).toMillis()).isEqualTo(written);
		byte[] tag = ("object " + blob.name() + "\ntype blob\ntag b\ntagger T <t@example.com> 1700000000 +0000\n\nb\n")
			.getBytes(StandardCharsets.UTF_8);
		ObjectId tagId = writer.write(ObjectType.TAG, tag);
		assertThat(repo.git("cat-file", "-t", tagId.name()).trim()).isEqualTo("tag");
		assertThat(repo.git("rev-parse", tagId.name() + "^{}").trim()).isEqualTo(blob.name());
		try (var entries = Files.list(file.getParent())) {
			assertThat(entries).as("no temporary file left").hasSize(1);
		}
		assertThat(repo.run(new byte[0], "fsck", "--full", "--strict").exitCode()).isZero();
	}

}
