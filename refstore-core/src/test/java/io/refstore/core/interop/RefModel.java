package io.refstore.core.interop;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the refs of a repository should be, and what git does with a transaction of
 * {@code update-ref --stdin} updates: git 2.39 with the files backend, or git 2.55 with
 * the reftable backend ({@link Backend}). The generator uses it to aim transactions at
 * success or at one chosen failure, and the test checks every prediction against git
 * itself, so a wrong model fails loudly instead of testing less.
 *
 * <p>
 * The rules follow git's files backend, and the reftable backend where it differs:
 * updates through a symbolic ref land on its referent, an update of the branch
 * {@code HEAD} points to also touches {@code HEAD}, a name may appear only once (also via
 * a symbolic ref), and a ref that does not exist yet cannot be locked while a ref or
 * another update of the transaction sits on a directory/file-conflicting name. Not
 * thread-safe.
 */
final class RefModel {

	static final String ZERO = "0000000000000000000000000000000000000000";

	/** Why git refuses a transaction (or a whole {@code --stdin} session). */
	enum Failure {

		DUPLICATE, DUPLICATE_VIA_SYMREF, DUPLICATE_VIA_HEAD, CREATE_EXISTS, MISSING_REF, STALE_OLD,
		NAME_CONFLICT_EXISTING, NAME_CONFLICT_BATCH, NON_COMMIT_ON_BRANCH, MISSING_OBJECT, INVALID_NAME, PROTOCOL,
		USAGE, SYMREF_COMMAND

	}

	/** Which git, on which ref format, the model predicts. */
	enum Backend {

		/** git 2.39's files backend. */
		FILES,

		/** git 2.55's reftable backend. */
		REFTABLE

	}

	/**
	 * One ref's value: exactly one of {@code id} (a direct ref) and {@code target} (a
	 * symbolic ref).
	 */
	record Value(String id, String target) {

		static Value direct(String id) {
			return new Value(id, null);
		}

		static Value symbolic(String target) {
			return new Value(null, target);
		}

		boolean isSymbolic() {
			return this.target != null;
		}

	}

	/**
	 * One update as {@code update-ref --stdin} queues it; {@code newId}/{@code oldId}
	 * null when absent.
	 */
	record Op(Kind kind, String name, String newId, String oldId, boolean noDeref) {

		enum Kind {

			UPDATE, CREATE, DELETE, VERIFY

		}

		boolean hasNew() {
			return this.kind == Kind.UPDATE || this.kind == Kind.CREATE || this.kind == Kind.DELETE;
		}

		/** The value written: {@link #ZERO} for a delete. */
		String effectiveNew() {
			return (this.kind == Kind.DELETE) ? ZERO : this.newId;
		}

		boolean hasOld() {
			return this.kind == Kind.CREATE || this.oldId != null || this.kind == Kind.VERIFY;
		}

		/** The expected old value: {@link #ZERO} for "must not exist". */
		String effectiveOld() {
			return (this.kind == Kind.CREATE || this.oldId == null) ? ZERO : this.oldId;
		}

	}

	private final Map<String, Value> refs;

	private final ObjectPool pool;

	private final Backend backend;

	RefModel(Map<String, Value> refs, ObjectPool pool, Backend backend) {
		this.refs = new HashMap<>(refs);
		this.pool = pool;
		this.backend = backend;
	}

	RefModel copy() {
		return new RefModel(this.refs, this.pool, this.backend);
	}

	Backend backend() {
		return this.backend;
	}

	/** Every ref, symbolic ones included (also dangling ones). */
	Map<String, Value> refs() {
		return Map.copyOf(this.refs);
	}

	Value get(String name) {
		return this.refs.get(name);
	}

	boolean isSymbolic(String name) {
		Value value = this.refs.get(name);
		return value != null && value.isSymbolic();
	}

	boolean exists(String name) {
		return this.refs.containsKey(name);
	}

	/**
	 * Follows symbolic refs like git's reading resolver; null for a missing or dangling
	 * ref.
	 */
	String resolve(String name) {
		String current = name;
		for (int depth = 0; depth <= 5; depth++) {
			Value value = this.refs.get(current);
			if (value == null) {
				return null;
			}
			if (!value.isSymbolic()) {
				return value.id();
			}
			current = value.target();
		}
		return null;
	}

	/** The ref {@code HEAD} points to, or null if it is detached. */
	String headTarget() {
		Value head = this.refs.get("HEAD");
		return (head != null && head.isSymbolic()) ? head.target() : null;
	}

	void setSymbolic(String name, String target) {
		this.refs.put(name, Value.symbolic(target));
	}

	void remove(String name) {
		this.refs.remove(name);
	}

	/**
	 * Whether {@code a} and {@code b} cannot both exist ({@code a} is a directory of
	 * {@code b} or the reverse).
	 */
	static boolean conflicts(String a, String b) {
		return a.startsWith(b + "/") || b.startsWith(a + "/");
	}

	/** An existing ref whose name conflicts with {@code name}, or null. */
	String conflictingRef(String name) {
		for (String existing : this.refs.keySet()) {
			if (conflicts(existing, name)) {
				return existing;
			}
		}
		return null;
	}

	/**
	 * Applies a transaction if git would commit it.
	 * @return null if it was applied, else why git refuses it (the model is then
	 * unchanged)
	 */
	Failure commit(List<Op> ops) {
		Map<String, Value> after = new HashMap<>(this.refs);
		Failure failure = evaluate(ops, after);
		if (failure == null) {
			this.refs.clear();
			this.refs.putAll(after);
		}
		return failure;
	}

	/**
	 * Why git would refuse the transaction, or null if it would commit; changes nothing.
	 */
	Failure check(List<Op> ops) {
		return evaluate(ops, new HashMap<>(this.refs));
	}

	/**
	 * One queued update: an op, or its copy that moved on to a symbolic ref's referent.
	 */
	private record Pending(Op op, String name, boolean viaHead) {

	}

	private Failure evaluate(List<Op> ops, Map<String, Value> after) {
		Set<String> affected = new HashSet<>();
		for (Op op : ops) {
			if (!affected.add(op.name())) {
				return Failure.DUPLICATE;
			}
		}
		String head = headTarget();
		Deque<Pending> queue = new ArrayDeque<>();
		ops.forEach((op) -> queue.add(new Pending(op, op.name(), false)));
		List<Pending> effective = new ArrayList<>();
		while (!queue.isEmpty()) {
			Pending pending = queue.poll();
			if (head != null && !pending.viaHead() && pending.name().equals(head) && !affected.add("HEAD")) {
				return Failure.DUPLICATE_VIA_HEAD;
			}
			Value value = this.refs.get(pending.name());
			if (value != null && value.isSymbolic() && !pending.op().noDeref()) {
				if (!affected.add(value.target())) {
					return Failure.DUPLICATE_VIA_SYMREF;
				}
				queue.add(new Pending(pending.op(), value.target(), pending.name().equals("HEAD")));
				continue;
			}
			Failure failure = checkOne(pending, value);
			if (failure != null) {
				return failure;
			}
			effective.add(pending);
		}
		Failure conflict = nameConflict(affected);
		if (conflict != null) {
			return conflict;
		}
		for (Pending pending : effective) {
			apply(pending, after);
		}
		return null;
	}

	private Failure checkOne(Pending pending, Value value) {
		Op op = pending.op();
		// a symbolic ref updated without dereferencing is checked against what it
		// resolves to (missing if dangling)
		String current = (value == null) ? null : value.isSymbolic() ? resolve(pending.name()) : value.id();
		if (op.hasOld()) {
			if (op.effectiveOld().equals(ZERO)) {
				if (current != null) {
					return Failure.CREATE_EXISTS;
				}
				// git 2.55 refuses to replace a dangling symbolic ref that was expected
				// not to exist
				if (this.backend == Backend.REFTABLE && op.noDeref() && value != null && value.isSymbolic()) {
					return Failure.CREATE_EXISTS;
				}
			}
			else if (current == null) {
				return Failure.MISSING_REF;
			}
			else if (!current.equals(op.effectiveOld())) {
				return Failure.STALE_OLD;
			}
		}
		boolean writes = op.hasNew() && !op.effectiveNew().equals(ZERO)
				&& !(value != null && !value.isSymbolic() && value.id().equals(op.effectiveNew()));
		if (writes) {
			ObjectPool.Type type = this.pool.type(op.effectiveNew());
			if (type == ObjectPool.Type.MISSING) {
				return Failure.MISSING_OBJECT;
			}
			if (type != ObjectPool.Type.COMMIT && isBranch(pending.name())) {
				return Failure.NON_COMMIT_ON_BRANCH;
			}
		}
		return null;
	}

	private Failure nameConflict(Set<String> affected) {
		List<String> names = new ArrayList<>(affected);
		for (String name : names) {
			if (this.refs.containsKey(name)) {
				continue;
			}
			if (conflictingRef(name) != null) {
				return Failure.NAME_CONFLICT_EXISTING;
			}
			for (String other : names) {
				if (conflicts(name, other)) {
					return Failure.NAME_CONFLICT_BATCH;
				}
			}
		}
		return null;
	}

	private static void apply(Pending pending, Map<String, Value> after) {
		Op op = pending.op();
		if (!op.hasNew()) {
			return;
		}
		if (op.effectiveNew().equals(ZERO)) {
			after.remove(pending.name());
		}
		else {
			after.put(pending.name(), Value.direct(op.effectiveNew()));
		}
	}

	/** git's {@code is_branch}: only commits may be written there. */
	static boolean isBranch(String name) {
		return name.equals("HEAD") || name.startsWith("refs/heads/");
	}

}
