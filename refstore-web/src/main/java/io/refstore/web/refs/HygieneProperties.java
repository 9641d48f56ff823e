package io.refstore.web.refs;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The ref hygiene settings, {@code refstore.hygiene.*}.
 *
 * @param staleAfter how old a branch's creator date makes it stale (default 90 days): the
 * repository page's stale count and the age its Clean up link plans by
 * @param cachedRefs how many refs the facts kept between requests may cover in all
 * (default 2,000,000, about 50 MB per million refs): filtering or sorting by date reads
 * every matching ref's facts once per store fingerprint, then pages from memory
 */
@ConfigurationProperties("refstore.hygiene")
public record HygieneProperties(Duration staleAfter, Long cachedRefs) {

	/** The default age of a stale branch. */
	public static final Duration DEFAULT_STALE_AFTER = Duration.ofDays(90);

	/** The default number of refs the cached facts may cover. */
	public static final long DEFAULT_CACHED_REFS = 2_000_000;

	public HygieneProperties {
		staleAfter = (staleAfter == null) ? DEFAULT_STALE_AFTER : staleAfter;
		cachedRefs = (cachedRefs == null) ? DEFAULT_CACHED_REFS : cachedRefs;
		if (staleAfter.toDays() < 1) {
			throw new IllegalArgumentException("refstore.hygiene.stale-after must be at least one day: " + staleAfter);
		}
		if (cachedRefs < 0) {
			throw new IllegalArgumentException("refstore.hygiene.cached-refs must not be negative: " + cachedRefs);
		}
	}

	/** {@link #staleAfter} in whole days. */
	public int staleAfterDays() {
		return (int) Math.min(RefFilter.MAX_DAYS, this.staleAfter.toDays());
	}

}
