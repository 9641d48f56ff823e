package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

class ScanDeadlineTest {

	@Test
	void aScanPastItsLimitStopsWithAProblemNamingTheGlob() {
		ScanDeadline deadline = new ScanDeadline(Duration.ZERO, "refs/**/x");
		for (int i = 1; i < ScanDeadline.EVERY; i++) {
			deadline.step();
		}
		ErrorResponseException stopped = catchThrowableOfType(ErrorResponseException.class, deadline::step);
		assertThat(stopped.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(stopped.getBody().getType().toString()).endsWith("/scan-time-limit");
		assertThat(stopped.getBody().getProperties()).containsEntry("parameter", "glob");
		assertThat(stopped.getBody().getDetail())
			.isEqualTo("the search stopped after scanning 1024 refs in 0 ms; narrow it with a prefix, "
					+ "or a glob that starts with more literal text");
	}

	@Test
	void aScanWithinItsLimitGoesOn() {
		ScanDeadline deadline = new ScanDeadline(Duration.ofMinutes(5), "");
		for (int i = 0; i < 100_000; i++) {
			deadline.step();
		}
		ErrorResponseException stopped = catchThrowableOfType(ErrorResponseException.class,
				new ScanDeadline(Duration.ofNanos(-1), "")::step);
		assertThat(stopped).isNull();
	}

}
