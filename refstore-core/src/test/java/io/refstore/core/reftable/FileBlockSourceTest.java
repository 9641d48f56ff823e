package io.refstore.core.reftable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.reftable.format.LogFixtures;
import io.refstore.core.reftable.format.LogRecord;
import io.refstore.core.reftable.format.RandomRefs;
import io.refstore.core.reftable.format.RefRecord;
import io.refstore.core.reftable.format.ReftableReader;
import io.refstore.core.reftable.format.Tables;
import io.refstore.core.reftable.format.WriteOptions;

/**
 * A table read from a file: the file side of the block sources, which the format's own
 * tests read from memory.
 */
class FileBlockSourceTest {

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void tableIsReadFromAMemoryMappedFileOrThroughItsChannel(boolean map, @TempDir Path dir) throws IOException {
		List<RefRecord> refs = RandomRefs.generate(17, 1000, 1, 3, HashAlgorithm.SHA1);
		List<LogRecord> logs = LogFixtures.logs(300, 3);
		Path file = dir.resolve("0x000000000001-0x000000000003-01234567.ref");
		Files.write(file, Tables.write(WriteOptions.defaults().withBlockSize(1024), 1, 3, refs, logs));
		try (ReftableReader reader = ReftableReader.open(FileBlockSource.open(file, map))) {
			assertThat(reader.name()).isEqualTo(file);
			assertThat(RandomRefs.describe(Tables.refs(reader))).containsExactlyElementsOf(RandomRefs.describe(refs));
			assertThat(LogFixtures.describe(Tables.drainLogs(reader.allLogs())))
				.containsExactlyElementsOf(LogFixtures.describe(logs));
			for (RefRecord ref : refs) {
				assertThat(RandomRefs.describe(reader.exactRef(ref.name()))).isEqualTo(RandomRefs.describe(ref));
			}
		}
	}

	/**
	 * A table read through its channel is let go of when it is closed, so that a file
	 * system that keeps a removed file while a process holds it (NFS, FUSE) can remove it
	 * and its directory at once; a mapping outlives its close (until the garbage
	 * collector frees it), which is why only local file systems map
	 * ({@link io.refstore.core.io.MemoryMaps}).
	 */
	@Test
	void aTableReadThroughItsChannelIsNoLongerHeldOnceClosed(@TempDir Path dir) throws IOException {
		Path mapped = dir.resolve("0x000000000001-0x000000000001-0000000a.ref");
		Path read = dir.resolve("0x000000000002-0x000000000002-0000000b.ref");
		for (Path file : List.of(mapped, read)) {
			Files.write(file, Tables.write(WriteOptions.defaults().withBlockSize(1024), 1, 1,
					RandomRefs.generate(5, 500, 1, 1, HashAlgorithm.SHA1), List.of()));
		}
		ReftableReader mappedReader = ReftableReader.open(FileBlockSource.open(mapped, true));
		ReftableReader readReader = ReftableReader.open(FileBlockSource.open(read, false));
		assertThat(Tables.refs(mappedReader)).hasSize(500);
		assertThat(Tables.refs(readReader)).hasSize(500);
		assertThat(held()).contains(mapped.toRealPath().toString(), read.toRealPath().toString());
		String readPath = read.toRealPath().toString();
		mappedReader.close();
		readReader.close();
		assertThat(held()).contains(mapped.toRealPath().toString()).doesNotContain(readPath);
		// the mapping goes with its buffer, which the collector may free once the reader
		// is unreachable
		Reference.reachabilityFence(mappedReader);
	}

	/** The files this process has open or mapped, from Linux's {@code /proc/self}. */
	private static String held() throws IOException {
		StringBuilder held = new StringBuilder(Files.readString(Path.of("/proc/self/maps")));
		try (var fds = Files.list(Path.of("/proc/self/fd"))) {
			for (Path fd : (Iterable<Path>) fds::iterator) {
				try {
					held.append(Files.readSymbolicLink(fd)).append('\n');
				}
				catch (IOException ex) {
					// closed since it was listed (the listing's own descriptor)
				}
			}
		}
		return held.toString();
	}

}
