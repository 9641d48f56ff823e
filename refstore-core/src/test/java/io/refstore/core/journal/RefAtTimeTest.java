package io.refstore.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.refstore.core.journal.RefAtTime.Change;
import io.refstore.core.journal.RefAtTime.Kind;
import io.refstore.core.journal.RefAtTime.State;

/**
 * What a ref held at a moment, from the changes around it as git 2.55 reports them
 * (docs/journal.md, "What git reports"): each rule and each report that is not the change
 * itself.
 */
class RefAtTimeTest {

	private static final String Z = "0".repeat(40);

	private static final String A = "a".repeat(40);

	private static final String B = "b".repeat(40);

	@Test
	void theLastChangeBeforeTheMomentGivesItsNewValue() {
		assertThat(RefAtTime.at(new Change(Z, A), null, false, null, B)).isEqualTo(value(A));
		assertThat(RefAtTime.at(new Change(A, B), new Change(B, A), false, null, A)).isEqualTo(value(B));
		assertThat(RefAtTime.at(new Change(Z, "ref:refs/heads/main"), null, false, null, null).kind())
			.isEqualTo(Kind.SYMBOLIC);
	}

	@Test
	void aDeletionIsBelievedOnlyIfNothingAfterItShowsTheRefHoldingAValue() {
		// a push's deletion, then a creation: absent in between
		assertThat(RefAtTime.at(new Change(A, Z), new Change(Z, B), false, null, B).kind()).isEqualTo(Kind.ABSENT);
		// branch -D and the files format's second report, nothing since: absent
		assertThat(RefAtTime.at(new Change(Z, Z), null, false, null, null).kind()).isEqualTo(Kind.ABSENT);
		// a verify, or a loose ref pack-refs pruned: the next change names the value it
		// held
		assertThat(RefAtTime.at(new Change(A, Z), new Change(A, B), false, null, B)).isEqualTo(value(A));
		// ... or nothing changed since and the ref holds it now
		assertThat(RefAtTime.at(new Change(A, Z), null, false, null, A)).isEqualTo(value(A));
		// it exists now at another value, and the journal saw no change: it cannot tell
		assertThat(RefAtTime.at(new Change(A, Z), null, false, null, B).kind()).isEqualTo(Kind.UNKNOWN);
	}

	@Test
	void withNoChangeBeforeTheMomentTheFirstAfterItOrTheBaseTells() {
		// no change at all: as it is now
		assertThat(RefAtTime.at(null, null, false, null, A)).isEqualTo(value(A));
		assertThat(RefAtTime.at(null, null, false, null, null).kind()).isEqualTo(Kind.ABSENT);
		// a push names the old value
		assertThat(RefAtTime.at(null, new Change(A, B), false, null, B)).isEqualTo(value(A));
		// a creation, an update without an old value and pack-refs' report look alike:
		// the base tells
		assertThat(RefAtTime.at(null, new Change(Z, B), true, null, B).kind()).isEqualTo(Kind.ABSENT);
		assertThat(RefAtTime.at(null, new Change(Z, B), true, A, B)).isEqualTo(value(A));
		assertThat(RefAtTime.at(null, new Change(Z, Z), true, A, null)).isEqualTo(value(A));
		// without a base taken by then, it cannot tell
		assertThat(RefAtTime.at(null, new Change(Z, B), false, null, B).kind()).isEqualTo(Kind.UNKNOWN);
		assertThat(RefAtTime.at(null, new Change(Z, Z), false, null, null).kind()).isEqualTo(Kind.UNKNOWN);
	}

	private static State value(String value) {
		return new State(Kind.VALUE, value);
	}

}
