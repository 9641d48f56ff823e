package io.refstore.web.repos;

/**
 * What the fleet knows of a repository this node does not hold: asked by
 * {@link RepoRegistry#open} before it answers that there is none.
 */
public interface RemoteRepos {

	/**
	 * Answers for {@code name} if another node of the fleet holds it, by throwing the
	 * exception that tells the client; returns if the fleet has no such repository
	 * either.
	 */
	void checkElsewhere(String name);

}
