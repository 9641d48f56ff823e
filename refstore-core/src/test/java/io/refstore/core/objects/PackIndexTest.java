package io.refstore.core.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

import static org.assertj.core.api.Assertions.assertThat;

class PackIndexTest {

	@TempDir
	Path tmp;

	/**
	 * Writes a version 2 index of {@code ids} (sorted here), object {@code i} at offset
	 * {@code 12 + i}.
	 */
	private Path index(byte[][] ids) throws IOException {
		byte[][] sorted = ids.clone();
		Arrays.sort(sorted, Arrays::compareUnsigned);
		int n = sorted.length;
		ByteBuffer buf = ByteBuffer.allocate(8 + 1024 + n * 28 + 40);
		buf.putInt(0xff744f63).putInt(2);
		int[] fanout = new int[256];
		for (byte[] id : sorted) {
			fanout[id[0] & 0xff]++;
		}
		int running = 0;
		for (int count : fanout) {
			running += count;
			buf.putInt(running);
		}
		for (byte[] id : sorted) {
			buf.put(id);
		}
		buf.position(buf.position() + 4 * n);
		for (int i = 0; i < n; i++) {
			buf.putInt(12 + i);
		}
		Path file = this.tmp.resolve("pack-test.idx");
		Files.write(file, buf.array());
		return file;
	}

	private static byte[][] randomIds(Random random, int count) {
		byte[][] ids = new byte[count][20];
		for (byte[] id : ids) {
			random.nextBytes(id);
		}
		return ids;
	}

	@Test
	void findsEveryObjectOfALargeIndexBeforeAndAfterItsWideFanOutIsMade() throws IOException {
		Random random = new Random(42);
		byte[][] ids = randomIds(random, 70_000);
		// ids sharing their first two bytes, and the extremes of the first two bytes
		ids[0] = new byte[20];
		ids[1] = new byte[20];
		Arrays.fill(ids[1], (byte) 0xff);
		ids[2] = ids[3].clone();
		ids[2][19] ^= 1;
		PackIndex index = PackIndex.open(index(ids), HashAlgorithm.SHA1);
		byte[][] sorted = ids.clone();
		Arrays.sort(sorted, Arrays::compareUnsigned);
		for (int round = 0; round < 2; round++) {
			for (int i = 0; i < sorted.length; i++) {
				assertThat(index.find(ObjectId.fromRaw(HashAlgorithm.SHA1, sorted[i], 0))).isEqualTo(12 + i);
			}
		}
		for (byte[] absent : randomIds(random, 5_000)) {
			assertThat(index.find(ObjectId.fromRaw(HashAlgorithm.SHA1, absent, 0))).isEqualTo(-1);
		}
		byte[] neighbour = ids[3].clone();
		neighbour[19] ^= 2;
		assertThat(index.find(ObjectId.fromRaw(HashAlgorithm.SHA1, neighbour, 0))).isEqualTo(-1);
	}

	/**
	 * Buckets of the wide fan-out (ids sharing their first two bytes) much larger than an
	 * even spread gives: one whose next two bytes are even, where the search starts at
	 * the id's place, and one where they are all but equal, where it ends by halving.
	 * Every id is found and every id between two of them is not.
	 */
	@Test
	void findsObjectsInBucketsFarFromEven() throws IOException {
		Random random = new Random(7);
		byte[][] ids = randomIds(random, 80_000);
		for (int i = 0; i < 6_000; i++) {
			byte[] id = ids[i];
			id[0] = (byte) 0x12;
			id[1] = (byte) 0x34;
			if (i < 3_000) {
				// even within the bucket
				continue;
			}
			id[0] = (byte) 0xab;
			id[1] = (byte) 0xcd;
			id[2] = 0;
			id[3] = (byte) (i % 3);
		}
		PackIndex index = PackIndex.open(index(ids), HashAlgorithm.SHA1);
		byte[][] sorted = ids.clone();
		Arrays.sort(sorted, Arrays::compareUnsigned);
		for (int round = 0; round < 2; round++) {
			for (int i = 0; i < sorted.length; i++) {
				assertThat(index.find(ObjectId.fromRaw(HashAlgorithm.SHA1, sorted[i], 0))).isEqualTo(12 + i);
				byte[] between = sorted[i].clone();
				between[19] ^= 1;
				if (Arrays.binarySearch(sorted, between, Arrays::compareUnsigned) < 0) {
					assertThat(index.find(ObjectId.fromRaw(HashAlgorithm.SHA1, between, 0))).isEqualTo(-1);
				}
			}
		}
	}

}
