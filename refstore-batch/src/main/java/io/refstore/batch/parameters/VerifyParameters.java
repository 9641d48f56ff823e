package io.refstore.batch.parameters;

import java.util.Map;

import io.refstore.batch.support.RefJobType;

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
