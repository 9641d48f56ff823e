package io.refstore.core.reftable.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class ObjIndexBuilderTest {

	@Test
	void ordersIdsBytewiseIncludingIdsThatShareLongPrefixes() {
		for (int hashSize : new int[] { 20, 32 }) {
			Random random = new Random(hashSize);
			ObjIndexBuilder builder = new ObjIndexBuilder(hashSize);
			List<byte[]> ids = new ArrayList<>();
			for (int i = 0; i < 5000; i++) {
				byte[] id = new byte[hashSize];
				random.nextBytes(id);
				if (i % 7 == 0 && !ids.isEmpty()) {
					// the first 8 to 19 bytes of an earlier id, so that the sort's
					// leading bits tie
					byte[] earlier = ids.get(random.nextInt(ids.size()));
					System.arraycopy(earlier, 0, id, 0, 8 + random.nextInt(12));
				}
				if (i % 11 == 0) {
					id[0] = (byte) 0xff;
				}
				ids.add(id);
				builder.add(id, i);
			}
			int[] order = builder.sortedOrder();
			assertThat(order).hasSize(ids.size());
			List<byte[]> sorted = new ArrayList<>(ids);
			sorted.sort(Arrays::compareUnsigned);
			for (int i = 0; i < order.length; i++) {
				assertThat(ids.get(order[i])).as("position " + i + " of " + hashSize + "-byte ids")
					.isEqualTo(sorted.get(i));
			}
		}
	}

	@Test
	void ordersNoIdAndOneId() {
		assertThat(new ObjIndexBuilder(20).sortedOrder()).isEmpty();
		ObjIndexBuilder one = new ObjIndexBuilder(20);
		one.add(new byte[20], 0);
		assertThat(one.sortedOrder()).containsExactly(0);
	}

}
