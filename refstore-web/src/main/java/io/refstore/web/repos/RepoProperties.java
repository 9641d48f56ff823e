package io.refstore.web.repos;

import java.nio.file.Path;
import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import io.refstore.core.repo.RepositoryDiscovery;

/**
 * Where repositories live: {@code refstore.repositories.*}. Checked on start: a bad value stops the application,
 * naming the setting.
 *
 * @param roots the directories searched for repositories, in order (the first that holds a name wins); created
 * on start if missing. Default {@code ${REFSTORE_HOME:${user.home}/.refstore}/repos}.
 * @param maxDepth how many directory levels below a root a plain tree is searched for repositories (default
 * {@value RepositoryDiscovery#DEFAULT_MAX_DEPTH}, 1 to 64), so that {@code group/subgroup/project.git} is found;
 * GitLab's hashed storage ({@code @hashed/ab/cd/<sha256>.git}) is found by its layout whatever the bound
 * @param openStores how many repositories' ref stores are kept open between requests (default 64, at least 1)
 */
@Validated
@ConfigurationProperties("refstore.repositories")
public record RepoProperties(@NotEmpty List<Path> roots,
		@DefaultValue("" + RepositoryDiscovery.DEFAULT_MAX_DEPTH) @Min(1) @Max(64) int maxDepth,
		@DefaultValue("64") @Min(1) int openStores) {

	public RepoProperties {
		roots = (roots == null) ? List.of() : List.copyOf(roots);
	}

}
