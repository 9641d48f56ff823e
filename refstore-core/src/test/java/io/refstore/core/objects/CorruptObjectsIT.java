package io.refstore.core.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Damaged object storage gives a {@link CorruptObjectException} naming the file (and
 * offset) or the object, never a wrong answer. The file-level cases use refstore's own
 * SHA-256 reader; damaged tag content is checked for both implementations.
 */
class CorruptObjectsIT {

	private static final HashAlgorithm SHA256 = HashAlgorithm.SHA256;

	@TempDir
	Path dir;

	@ParameterizedTest
	@EnumSource(HashAlgorithm.class)
	void tagWithoutObjectLineIsReportedNamingTheTag(HashAlgorithm algorithm) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), this.dir, "--object-format=" + algorithm.configName());
		String tag = repo
			.run("not a tag at all\n".getBytes(StandardCharsets.UTF_8), "hash-object", "-t", "tag", "-w", "--literally",
					"--stdin")
			.requireOk()
			.stdout()
			.trim();
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), algorithm)) {
			assertThat(db.type(ObjectId.fromHex(algorithm, tag))).isEqualTo(ObjectDatabase.ObjectType.TAG);
			assertThatThrownBy(() -> db.peel(ObjectId.fromHex(algorithm, tag)))
				.isInstanceOf(CorruptObjectException.class)
				.hasMessageContaining("tag " + tag + " is damaged");
		}
	}

	@Test
	void damagedIndexHeaderIsReportedNamingTheIndex() throws IOException {
		TempRepo repo = packedRepo();
		Path idx = only(repo, ".idx");
		overwrite(idx, 0, new byte[] { 1, 2, 3, 4 });
		assertThatThrownBy(() -> ObjectDatabases.open(repo.gitDir().resolve("objects"), SHA256).close())
			.isInstanceOf(CorruptObjectException.class)
			.hasMessageContaining(idx.toString())
			.hasMessageContaining("not a version 2 pack index");
	}

	@Test
	void packNotMatchingItsIndexIsReportedNamingThePack() throws IOException {
		TempRepo repo = packedRepo();
		Path pack = only(repo, ".pack");
		long size = Files.size(pack);
		overwrite(pack, size - 1, new byte[] { (byte) ~lastByte(pack) });
		assertThatThrownBy(() -> ObjectDatabases.open(repo.gitDir().resolve("objects"), SHA256).close())
			.isInstanceOf(CorruptObjectException.class)
			.hasMessageContaining(pack.toString())
			.hasMessageContaining("checksum does not match its index");
	}

	@Test
	void damagedCompressedDataIsReportedWithPackAndOffset() throws IOException {
		TempRepo repo = packedRepo();
		Path pack = only(repo, ".pack");
		String tag = repo.git("rev-parse", "refs/tags/big").trim();
		long offset = offsetOf(repo, tag);
		overwrite(pack, offset + 40, "garbage!".getBytes(StandardCharsets.US_ASCII));
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), SHA256)) {
			assertThatThrownBy(() -> db.peel(ObjectId.fromHex(SHA256, tag))).isInstanceOf(CorruptObjectException.class)
				.hasMessageContaining(pack.toString())
				.hasMessageContaining("offset ");
		}
		assertThat(repo.run(new byte[0], "cat-file", "-p", tag).exitCode()).as("git also fails").isNotZero();
	}

	@Test
	void looseObjectThatIsNoZlibStreamIsReportedNamingTheFile() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), this.dir, "--object-format=sha256");
		ObjectId id = ObjectId.fromHex(SHA256, "ab".repeat(32));
		Path file = looseFile(repo, id);
		Files.write(file, "plain text".getBytes(StandardCharsets.US_ASCII));
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), SHA256)) {
			assertThatThrownBy(() -> db.type(id)).isInstanceOf(CorruptObjectException.class)
				.hasMessageContaining(file.toString())
				.hasMessageContaining("not a zlib stream");
		}
	}

	@Test
	void looseObjectShorterThanItsHeaderIsReportedNamingTheFile() throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), this.dir, "--object-format=sha256");
		ObjectId id = ObjectId.fromHex(SHA256, "cd".repeat(32));
		Path file = looseFile(repo, id);
		Files.write(file, deflate("tag 500\0object " + "ef".repeat(32) + "\ntype commit\n"));
		try (ObjectDatabase db = ObjectDatabases.open(repo.gitDir().resolve("objects"), SHA256)) {
			assertThat(db.type(id)).isEqualTo(ObjectDatabase.ObjectType.TAG);
			assertThatThrownBy(() -> db.peel(id)).isInstanceOf(CorruptObjectException.class)
				.hasMessageContaining(file.toString())
				.hasMessageContaining("shorter than the 500 bytes");
		}
	}

	/**
	 * A SHA-256 repository with one large annotated tag ({@code refs/tags/big}), fully
	 * packed.
	 */
	private TempRepo packedRepo() {
		TempRepo repo = TempRepo.init(GitCli.system(), this.dir, "--object-format=sha256");
		String commit = repo.commit("c", null);
		String text = "object " + commit
				+ "\ntype commit\ntag big\ntagger C O Mitter <c@example.com> 1700000000 +0000\n\n"
				+ "a long message that is not all the same. ".repeat(50) + "\n";
		String tag = repo.run(text.getBytes(StandardCharsets.UTF_8), "hash-object", "-t", "tag", "-w", "--stdin")
			.requireOk()
			.stdout()
			.trim();
		repo.git("update-ref", "refs/tags/big", tag);
		repo.git("repack", "-adq");
		repo.git("prune-packed");
		return repo;
	}

	private static Path only(TempRepo repo, String suffix) throws IOException {
		try (Stream<Path> files = Files.list(repo.gitDir().resolve("objects/pack"))) {
			List<Path> found = files.filter((p) -> p.toString().endsWith(suffix)).toList();
			assertThat(found).hasSize(1);
			return found.get(0);
		}
	}

	private static long offsetOf(TempRepo repo, String id) throws IOException {
		String listing = repo.git("verify-pack", "-v", only(repo, ".idx").toString());
		return listing.lines()
			.filter((line) -> line.startsWith(id + " "))
			.map((line) -> Long.parseLong(line.trim().split("\\s+")[4]))
			.findFirst()
			.orElseThrow();
	}

	private static Path looseFile(TempRepo repo, ObjectId id) throws IOException {
		Path file = repo.gitDir().resolve("objects").resolve(id.name().substring(0, 2)).resolve(id.name().substring(2));
		Files.createDirectories(file.getParent());
		return file;
	}

	private static byte[] deflate(String text) {
		Deflater deflater = new Deflater();
		deflater.setInput(text.getBytes(StandardCharsets.US_ASCII));
		deflater.finish();
		byte[] buf = new byte[4096];
		int length = deflater.deflate(buf);
		deflater.end();
		return Arrays.copyOf(buf, length);
	}

	private static void overwrite(Path file, long at, byte[] bytes) throws IOException {
		file.toFile().setWritable(true);
		try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
			raf.seek(at);
			raf.write(bytes);
		}
	}

	private static byte lastByte(Path file) throws IOException {
		byte[] all = Files.readAllBytes(file);
		return all[all.length - 1];
	}

}
