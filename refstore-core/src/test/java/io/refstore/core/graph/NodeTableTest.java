package io.refstore.core.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import org.junit.jupiter.api.Test;

class NodeTableTest {

	@Test
	void findsEveryIdAddedByItsIndexThroughManyRehashes() throws NoSuchAlgorithmException {
		NodeTable table = new NodeTable(20);
		byte[] ids = new byte[50_000 * 20];
		MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
		for (int i = 0; i < 50_000; i++) {
			System.arraycopy(sha1.digest(Integer.toString(i).getBytes()), 0, ids, i * 20, 20);
		}
		for (int i = 0; i < 50_000; i++) {
			assertThat(table.find(ids, i * 20)).isEqualTo(-1);
			assertThat(table.add(ids, i * 20)).isEqualTo(i);
		}
		assertThat(table.size()).isEqualTo(50_000);
		byte[] copy = new byte[20];
		for (int i = 0; i < 50_000; i++) {
			assertThat(table.find(ids, i * 20)).isEqualTo(i);
			table.copy(i, copy);
			assertThat(copy).containsExactly(java.util.Arrays.copyOfRange(ids, i * 20, i * 20 + 20));
		}
	}

	@Test
	void tellsApartIdsThatShareTheirLeadingBytes() {
		NodeTable table = new NodeTable(32);
		byte[] first = new byte[32];
		byte[] second = new byte[32];
		second[31] = 1;
		table.add(first, 0);
		assertThat(table.find(second, 0)).isEqualTo(-1);
		assertThat(table.add(second, 0)).isEqualTo(1);
		assertThat(table.find(first, 0)).isZero();
		assertThat(table.find(second, 0)).isEqualTo(1);
	}

}
