package io.refstore.core.repo;

import java.nio.file.Path;
import java.util.List;

/**
 * Runs a {@link RepositoryDiscovery} of one root in a process of its own, for
 * {@link RepositoryDiscoveryTest} to run as an unprivileged user (root reads every
 * directory whatever its mode). Prints the names, one a line, then the description of the
 * skips and the first unreadable directory. Arguments: the root and the depth bound.
 */
public final class DiscoveryMain {

	private DiscoveryMain() {
	}

	public static void main(String[] args) throws Exception {
		DiscoveredRepositories found = new RepositoryDiscovery(new RepositoryPaths(List.of(Path.of(args[0]))),
				Integer.parseInt(args[1]))
			.discover();
		found.names().forEach(System.out::println);
		System.out.println("skipped: " + found.describeSkipped());
		System.out
			.println("first unreadable: " + found.firstSkipped().get(DiscoveredRepositories.SkipReason.UNREADABLE));
	}

}
