package io.refstore.core.reftable.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.HashAlgorithm;

/**
 * A table whose source hands out views without an array (as a file's mapping does) reads
 * each index block from it once: later seeks start from the copy the reader kept, and
 * find what a table read from memory finds.
 */
class IndexBlocksTest {

	@Test
	void eachIndexBlockIsReadFromTheSourceOnceAndSeeksFindEveryRef() throws IOException {
		List<RefRecord> refs = RandomRefs.generate(23, 3000, 1, 1, HashAlgorithm.SHA1);
		byte[] table = Tables.write(WriteOptions.defaults().withBlockSize(512), 1, 1, refs, List.of());
		List<Long> reads = new ArrayList<>();
		BlockSource mapped = new BlockSource() {

			@Override
			public Path name() {
				return Path.of("(mapped)");
			}

			@Override
			public long size() {
				return table.length;
			}

			@Override
			public ByteBuffer read(long offset, int length) {
				reads.add(offset);
				int n = (int) Math.min(length, table.length - offset);
				return ByteBuffer.wrap(table, (int) offset, n).slice().asReadOnlyBuffer();
			}

			@Override
			public void close() {
			}

		};
		try (ReftableReader reader = ReftableReader.open(mapped);
				ReftableReader inMemory = ReftableReader.open(BlockSource.of(table))) {
			long indexStart = reader.indexStart(ReftableConstants.BLOCK_TYPE_REF);
			assertThat(indexStart).as("a table with a ref index").isPositive();
			for (int pass = 0; pass < 2; pass++) {
				for (RefRecord ref : refs) {
					assertThat(RandomRefs.describe(reader.exactRef(ref.name())))
						.isEqualTo(RandomRefs.describe(inMemory.exactRef(ref.name())))
						.isEqualTo(RandomRefs.describe(ref));
				}
			}
			List<Long> indexReads = reads.stream().filter((offset) -> offset >= indexStart).toList();
			List<Long> distinct = indexReads.stream().distinct().toList();
			assertThat(distinct).as("index blocks and what follows the index").isNotEmpty();
			// each index block once; past the last one, the probe that finds no further
			// index block reads the same offset on every seek
			assertThat(indexReads.size() - distinct.size()).isLessThanOrEqualTo(2 * refs.size());
			assertThat(indexReads.stream()
				.filter((offset) -> indexReads.indexOf(offset) != indexReads.lastIndexOf(offset))
				.distinct()).hasSizeLessThanOrEqualTo(1);
		}
	}

}
