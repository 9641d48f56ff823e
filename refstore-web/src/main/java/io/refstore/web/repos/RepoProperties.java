package io.refstore.web.repos;

import java.nio.file.Path;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where repositories live: {@code refstore.repositories.*}.
 *
 * @param roots the directories searched for repositories, in order (the first that holds a name wins); created
 * on start if missing. Default {@code ${REFSTORE_HOME:${user.home}/.refstore}/repos}.
 * @param maxDepth how many directory levels below a root are searched for repositories (default 3), so that
 * {@code team/project.git} is found
 * @param openStores how many repositories' ref stores are kept open between requests (default 64)
 */
@ConfigurationProperties("refstore.repositories")
public record RepoProperties(List<Path> roots, Integer maxDepth, Integer openStores) {

	public RepoProperties {
		roots = (roots == null) ? List.of() : List.copyOf(roots);
		maxDepth = (maxDepth == null) ? 3 : maxDepth;
		openStores = (openStores == null) ? 64 : openStores;
	}

}
