package io.refstore.core.files;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.SymbolicRef;

import static org.assertj.core.api.Assertions.assertThat;

class LooseRefsTest {

	private static final String A = "07a33c9baff543b217103d0f7c3b90c6d743a0e5";

	private static Ref parse(String content) {
		return LooseRefs.parse(content.getBytes(StandardCharsets.UTF_8), "refs/heads/x", HashAlgorithm.SHA1);
	}

	@Test
	void acceptsWhatGitAccepts() {
		for (String content : new String[] { A + "\n", A, A + "\r\n", A + "  \n", A + " garbage\n",
				A.toUpperCase() + "\n" }) {
			assertThat(parse(content)).as(content)
				.isEqualTo(new DirectRef("refs/heads/x", io.refstore.core.ref.ObjectId.fromHex(HashAlgorithm.SHA1, A)));
		}
		for (String content : new String[] { "ref: refs/heads/main\n", "ref:refs/heads/main",
				"ref:   refs/heads/main  \n" }) {
			assertThat(parse(content)).as(content).isEqualTo(new SymbolicRef("refs/heads/x", "refs/heads/main"));
		}
	}

	@Test
	void shortOrNonHexContentIsBroken() {
		for (String content : new String[] { A.substring(1) + "\n", A + "X\n", "zz" + A.substring(2), "", "ref:\n" }) {
			assertThat(parse(content)).as(content).isSameAs(LooseRefs.BROKEN);
		}
	}

	@Test
	void formatsAsGitWrites() {
		Ref direct = new DirectRef("refs/heads/x", io.refstore.core.ref.ObjectId.fromHex(HashAlgorithm.SHA1, A));
		assertThat(new String(LooseRefs.format(direct), StandardCharsets.UTF_8)).isEqualTo(A + "\n");
		assertThat(new String(LooseRefs.format(new SymbolicRef("HEAD", "refs/heads/main")), StandardCharsets.UTF_8))
			.isEqualTo("ref: refs/heads/main\n");
	}

}
