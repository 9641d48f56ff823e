package io.refstore.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

	@Test
	void defaultsAreAMillionRefsAndFiveRuns() {
		BenchmarkOptions options = BenchmarkOptions.parse(List.of());
		assertThat(options.refs()).isEqualTo(1_000_000);
		assertThat(options.runs()).isEqualTo(5);
		assertThat(options.timeout()).isEqualTo(Duration.ofMinutes(30));
		assertThat(options.work()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "refstore-bench"));
		assertThat(options.launcher()).isNull();
		assertThat(options.selected("lookup/files")).isTrue();
	}

	@Test
	void valuesComeSeparateOrAfterAnEqualsSign() {
		BenchmarkOptions options = BenchmarkOptions
			.parse(List.of("--refs", "100_000", "--runs=3", "--work", "/tmp/w", "--timeout=5", "--only", "a,b"));
		assertThat(options.refs()).isEqualTo(100_000);
		assertThat(options.runs()).isEqualTo(3);
		assertThat(options.work()).isEqualTo(Path.of("/tmp/w"));
		assertThat(options.timeout()).isEqualTo(Duration.ofMinutes(5));
		assertThat(options.selected("a")).isTrue();
		assertThat(options.selected("c")).isFalse();
	}

	@Test
	void badValuesAreRefusedNamingTheOption() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse(List.of("--refs", "lots")))
			.withMessage("option --refs expects a whole number, not 'lots'");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse(List.of("--refs", "10")))
			.withMessage("option --refs must be at least 100, not 10");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse(List.of("--runs", "0")))
			.withMessage("option --runs must be at least 1, not 0");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse(List.of("--work")))
			.withMessage("option --work needs a value");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse(List.of("--fast", "1")))
			.withMessage("unknown option --fast");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse(List.of("--only", "a,,b")))
			.withMessage("option --only has an empty id in 'a,,b'");
	}

	@Test
	void helpStopsParsing() {
		assertThat(BenchmarkOptions.parse(List.of("--help", "--bogus")).help()).isTrue();
	}

}
