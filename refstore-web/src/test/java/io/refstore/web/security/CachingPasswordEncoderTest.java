package io.refstore.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * The Basic credentials cache over the real bcrypt encoder: a match is remembered, a
 * mismatch never is, and a changed password (another stored hash) is checked again. The
 * medians of a bcrypt check and of a remembered one are printed, not asserted.
 */
class CachingPasswordEncoderTest {

	private final PasswordEncoder bcrypt = PasswordEncoderFactories.createDelegatingPasswordEncoder();

	private final CachingPasswordEncoder encoder = new CachingPasswordEncoder(this.bcrypt, Duration.ofMinutes(1));

	@Test
	void aMatchIsRememberedForItsStoredHashOnly() {
		String stored = this.bcrypt.encode("old secret");
		assertThat(this.encoder.matches("old secret", stored)).isTrue();
		assertThat(this.encoder.matches("old secret", stored)).isTrue();
		assertThat(this.encoder.matches("wrong", stored)).isFalse();
		assertThat(this.encoder.matches("wrong", stored)).isFalse();
		String changed = this.bcrypt.encode("new secret");
		assertThat(this.encoder.matches("old secret", changed)).isFalse();
		assertThat(this.encoder.matches("new secret", changed)).isTrue();
		assertThat(this.encoder.matches("new secret", stored)).isFalse();
	}

	@Test
	void aRememberedMatchSkipsTheHash() {
		String stored = this.bcrypt.encode("secret");
		long[] checked = new long[9];
		long[] remembered = new long[9];
		for (int i = 0; i < checked.length; i++) {
			long start = System.nanoTime();
			assertThat(this.bcrypt.matches("secret", stored)).isTrue();
			checked[i] = System.nanoTime() - start;
			start = System.nanoTime();
			assertThat(this.encoder.matches("secret", stored)).isTrue();
			remembered[i] = System.nanoTime() - start;
		}
		Arrays.sort(checked);
		Arrays.sort(remembered);
		System.out.printf("bcrypt check median %.2f ms, remembered match median %.3f ms%n", checked[4] / 1e6,
				remembered[4] / 1e6);
	}

}
