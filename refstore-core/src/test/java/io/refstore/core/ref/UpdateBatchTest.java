package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class UpdateBatchTest {

	private static final ObjectId A = ObjectId.fromHex(HashAlgorithm.SHA1, "a".repeat(40));

	private static final ObjectId B = ObjectId.fromHex(HashAlgorithm.SHA1, "b".repeat(40));

	@Test
	void sortedOrderIsBytewiseNameOrderAndStable() {
		Random random = new Random(7);
		UpdateBatch batch = new UpdateBatch(HashAlgorithm.SHA1);
		List<byte[]> names = new ArrayList<>();
		String[] parts = { "a", "b", "a-b", "a/b", "\u00e9", "\uffff", "\ud83d\ude00", "z", "" };
		for (int i = 0; i < 5000; i++) {
			String name = "refs/" + parts[random.nextInt(parts.length)] + parts[random.nextInt(parts.length)] + "/"
					+ random.nextInt(300);
			byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
			names.add(bytes);
			batch.add(bytes, 0, bytes.length, RefUpdate.Type.UPDATE, A, null, false);
		}
		int[] order = batch.sortedOrder();
		for (int k = 1; k < order.length; k++) {
			int c = Arrays.compareUnsigned(names.get(order[k - 1]), names.get(order[k]));
			assertThat(c).isLessThanOrEqualTo(0);
			if (c == 0) {
				assertThat(order[k - 1]).isLessThan(order[k]);
			}
		}
		assertThat(Arrays.stream(order).sorted().toArray())
			.isEqualTo(java.util.stream.IntStream.range(0, 5000).toArray());
	}

	@Test
	void givesBackEachUpdateAsAdded() {
		UpdateBatch batch = new UpdateBatch(HashAlgorithm.SHA1);
		List<RefUpdate> updates = List.of(RefUpdate.create("refs/heads/n", A), RefUpdate.update("refs/heads/u", B, A),
				RefUpdate.update("refs/heads/z", ObjectId.zero(HashAlgorithm.SHA1), null),
				RefUpdate.delete("refs/heads/d", A).withNoDeref(), RefUpdate.delete("refs/heads/e", null),
				RefUpdate.verify("refs/heads/v", ObjectId.zero(HashAlgorithm.SHA1)),
				RefUpdate.verify("refs/heads/w", B));
		updates.forEach(batch::add);
		for (int i = 0; i < updates.size(); i++) {
			assertThat(batch.update(i)).isEqualTo(updates.get(i));
			assertThat(batch.isDelete(i)).isEqualTo(updates.get(i).isDelete());
		}
		assertThat(batch.expectsMissing(0)).isTrue();
		assertThat(batch.expectsMissing(1)).isFalse();
		assertThat(batch.hasExpectedOld(2)).isFalse();
		assertThat(batch.expectsMissing(5)).isTrue();
		assertThat(batch.writesValue(2)).isFalse();
		assertThat(batch.writesValue(1)).isTrue();
	}

	@Test
	void refusesWhatItCannotHold() {
		UpdateBatch batch = new UpdateBatch(HashAlgorithm.SHA1);
		assertThat(UpdateBatch.canHold(RefUpdate.symref("HEAD", "refs/heads/main"))).isFalse();
		assertThat(UpdateBatch.canHold(RefUpdate.create("refs/heads/a", A).withMessage("m"))).isFalse();
		assertThatThrownBy(() -> batch.add(RefUpdate.symref("HEAD", "refs/heads/main")))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> batch
			.add(RefUpdate.create("refs/heads/a", ObjectId.fromHex(HashAlgorithm.SHA256, "c".repeat(64)))))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
