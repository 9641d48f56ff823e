package io.refstore.core.journal;

/**
 * What a ref held at a past moment, worked out from the journal around that moment, the
 * journal's base and the ref now. git's reports are not always the change itself
 * (docs/journal.md): an old value git was not given is zeros, a {@code verify} and the
 * loose refs {@code pack-refs} prunes are reported as deletions, and {@code pack-refs}
 * reports packed refs as created. So:
 * <ul>
 * <li>the last change at or before the moment gives the value it set, but a "deletion" is
 * believed only if nothing after it shows the ref still holding a value: the next change
 * naming an old value, or, with no next change, the ref holding the deleted value
 * now;</li>
 * <li>with no change before the moment, the first change after it gives its old value if
 * it names one; if it names none (a creation, or an update or deletion without an old
 * value) the base tells, if it was taken at or before the moment; else the value is
 * unknown and the ref is left alone.</li>
 * </ul>
 * Symbolic refs are left alone. Stateless.
 */
public final class RefAtTime {

	/** What the ref held at the moment. */
	public enum Kind {

		/** An object id ({@link State#value()}). */
		VALUE,
		/** Nothing: the ref did not exist. */
		ABSENT,
		/** The journal cannot tell. */
		UNKNOWN,
		/** A symbolic ref, then or now: not restored. */
		SYMBOLIC

	}

	/**
	 * A ref's state at the moment.
	 *
	 * @param kind what it held
	 * @param value the object id in hex for {@link Kind#VALUE}, else {@code null}
	 */
	public record State(Kind kind, String value) {

		static final State ABSENT = new State(Kind.ABSENT, null);

		static final State UNKNOWN = new State(Kind.UNKNOWN, null);

		static final State SYMBOLIC = new State(Kind.SYMBOLIC, null);

		static State value(String value) {
			return isSymbolic(value) ? SYMBOLIC : new State(Kind.VALUE, value);
		}

	}

	/**
	 * A journaled change, as git reported it.
	 *
	 * @param oldValue the old value (zeros for none or unknown, or {@code ref:<target>})
	 * @param newValue the new value (zeros for a deletion, or {@code ref:<target>})
	 */
	public record Change(String oldValue, String newValue) {

	}

	private RefAtTime() {
	}

	/**
	 * The ref's state at the moment.
	 * @param last its newest change at or before the moment, or {@code null}
	 * @param next its oldest change after the moment (after {@code last}), or
	 * {@code null}
	 * @param base whether the journal's base was taken at or before the moment
	 * @param baseValue the value the base holds for the ref, or {@code null} if the base
	 * lacks it (or there is none)
	 * @param current the ref's value now (an object id in hex or {@code ref:<target>}),
	 * or {@code null} if it does not exist
	 */
	public static State at(Change last, Change next, boolean base, String baseValue, String current) {
		if (last != null) {
			if (!DeletedRefs.isZero(last.newValue())) {
				return State.value(last.newValue());
			}
			if (next != null) {
				// a verify, or a loose ref pack-refs pruned, if the next change found a
				// value
				return DeletedRefs.isZero(next.oldValue()) ? State.ABSENT : State.value(next.oldValue());
			}
			if (current == null) {
				return State.ABSENT;
			}
			// no change since: the ref holds what was "deleted", or a writer the journal
			// did not see made it
			return current.equals(last.oldValue()) ? State.value(current) : State.UNKNOWN;
		}
		if (next == null) {
			return (current == null) ? State.ABSENT : State.value(current);
		}
		if (!DeletedRefs.isZero(next.oldValue())) {
			return State.value(next.oldValue());
		}
		if (!base) {
			return State.UNKNOWN;
		}
		return (baseValue == null) ? State.ABSENT : State.value(baseValue);
	}

	private static boolean isSymbolic(String value) {
		return value.startsWith("ref:");
	}

}
