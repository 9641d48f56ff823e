package io.refstore.core.interop;

import java.util.List;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * What the differential test does differently for each ref format: the git that judges,
 * how a twin's store is captured and compared ({@link StoreSnapshot}), which reader
 * commands run, and what must be clean at the end. Immutable.
 */
interface StoreFormat {

	/** A short name for messages. */
	String name();

	/** The git that writes twin A and judges twin B. */
	GitCli git();

	/** Which git the model of this format predicts. */
	RefModel.Backend backend();

	/** Captures the store of {@code twin} now. */
	StoreSnapshot snapshot(TempRepo twin);

	/**
	 * Reader commands that git and refstore run on both twins, all answers equal to git's
	 * on twin A.
	 */
	List<List<String>> readers();

	/**
	 * Reader commands that only git runs (refstore lacks the option), its answers on both
	 * twins equal.
	 */
	List<List<String>> gitReaders();

	/** How git shows the reflog of {@code name} for comparison. */
	default List<String> reflogCommand(String name) {
		return List.of("reflog", "show", name, "--");
	}

	/**
	 * Consistency checks at the end of the run that git and refstore run on both twins,
	 * each of which must exit with 0 and print nothing.
	 */
	List<List<String>> verifiers();

	/**
	 * The files backend, judged by git 2.39 on the PATH: twins compared byte for byte.
	 */
	static StoreFormat files() {
		GitCli git = GitCli.system();
		return new StoreFormat() {

			@Override
			public String name() {
				return "files";
			}

			@Override
			public GitCli git() {
				return git;
			}

			@Override
			public RefModel.Backend backend() {
				return RefModel.Backend.FILES;
			}

			@Override
			public StoreSnapshot snapshot(TempRepo twin) {
				return RepoSnapshot.of(twin.gitDir());
			}

			@Override
			public List<List<String>> readers() {
				return COMMON_READERS;
			}

			@Override
			public List<List<String>> gitReaders() {
				return List.of();
			}

			@Override
			public List<List<String>> verifiers() {
				// git 2.39 has no "git refs verify"
				return List.of();
			}

		};
	}

	/**
	 * The reftable backend, judged by the reftable-capable git
	 * ({@link GitCli#reftable()}).
	 */
	static StoreFormat reftable() {
		GitCli git = GitCli.reftable();
		return new StoreFormat() {

			@Override
			public String name() {
				return "reftable";
			}

			@Override
			public GitCli git() {
				return git;
			}

			@Override
			public RefModel.Backend backend() {
				return RefModel.Backend.REFTABLE;
			}

			@Override
			public StoreSnapshot snapshot(TempRepo twin) {
				return ReftableSnapshot.of(twin, git);
			}

			@Override
			public List<List<String>> readers() {
				return COMMON_READERS;
			}

			@Override
			public List<List<String>> gitReaders() {
				return List.of(
						List.of("for-each-ref", "--include-root-refs", "--format=%(refname) %(objectname) %(symref)"),
						List.of("reflog", "list"));
			}

			@Override
			public List<String> reflogCommand(String name) {
				// with the identity too: refstore writes it from the same environment as
				// git
				return List.of("reflog", "show", "--format=%gD %H %gn <%ge> %gs", name, "--");
			}

			@Override
			public List<List<String>> verifiers() {
				return List.of(List.of("refs", "verify"));
			}

		};
	}

	/** What both formats compare: git's and refstore's answers. */
	List<List<String>> COMMON_READERS = List.of(List.of("show-ref", "-d"),
			List.of("for-each-ref", "--format=%(refname) %(objectname) %(symref)"), List.of("for-each-ref"),
			List.of("show-ref", "--head"));

}
