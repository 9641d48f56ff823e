package io.refstore.web.campaigns;

import java.util.Map;

/**
 * A campaign as a client asks for it; {@link CampaignService} checks every field and
 * names the one it refuses.
 *
 * @param jobType a job type ({@code maintain}, {@code verify}, {@code migrate}...)
 * @param targetKind {@code REPOSITORY}, {@code GLOB} (default) or
 * {@code LOOSE_REFS_ABOVE}
 * @param target the repository, the glob, or the threshold
 * @param parameters further job parameters (never {@code repository}: the target selects
 * them)
 * @param concurrency how many jobs may run at once, 1 to
 * {@value CampaignService#MAX_CONCURRENCY}; default 1
 */
public record CampaignRequest(String jobType, String targetKind, String target, Map<String, String> parameters,
		Integer concurrency) {

}
