package io.refstore.core.reftable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

	@Test
	void tableIsReadFromAMemoryMappedFile(@TempDir Path dir) throws IOException {
		List<RefRecord> refs = RandomRefs.generate(17, 1000, 1, 3, HashAlgorithm.SHA1);
		List<LogRecord> logs = LogFixtures.logs(300, 3);
		Path file = dir.resolve("0x000000000001-0x000000000003-01234567.ref");
		Files.write(file, Tables.write(WriteOptions.defaults().withBlockSize(1024), 1, 3, refs, logs));
		try (ReftableReader reader = ReftableReader.open(FileBlockSource.open(file))) {
			assertThat(reader.name()).isEqualTo(file);
			assertThat(RandomRefs.describe(Tables.refs(reader))).containsExactlyElementsOf(RandomRefs.describe(refs));
			assertThat(LogFixtures.describe(Tables.drainLogs(reader.allLogs())))
				.containsExactlyElementsOf(LogFixtures.describe(logs));
			for (RefRecord ref : refs) {
				assertThat(RandomRefs.describe(reader.exactRef(ref.name()))).isEqualTo(RandomRefs.describe(ref));
			}
		}
	}

}
