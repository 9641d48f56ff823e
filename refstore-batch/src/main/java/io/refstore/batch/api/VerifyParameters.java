package io.refstore.batch.api;

import java.util.Map;

/** {@code verifyRefsJob}'s parameters: it takes none besides the repository. */
public record VerifyParameters() implements RefJobParameters {

	@Override
	public RefJobType type() {
		return RefJobType.VERIFY;
	}

	@Override
	public Map<String, String> toMap() {
		return Map.of();
	}

}
