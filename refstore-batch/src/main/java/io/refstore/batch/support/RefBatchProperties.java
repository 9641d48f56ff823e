package io.refstore.batch.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the refstore jobs ({@code refstore.*}).
 *
 * @param repositories where repositories may live
 * @param jobs lease and instance settings
 */
@ConfigurationProperties("refstore")
public record RefBatchProperties(@DefaultValue Repositories repositories, @DefaultValue Jobs jobs) {

	/**
	 * @param roots the directories repositories are looked up in, in order ({@code refstore.repositories.roots})
	 */
	public record Repositories(List<Path> roots) {

	}

	/**
	 * @param instanceId this application instance's name in the lease table and job contexts (default: the host
	 * name); instances sharing a database need distinct names, and a restarted instance keeps its name so that it
	 * recognises the executions it left running
	 * @param leaseTtl how long a lease lives without a heartbeat (default 60 s); heartbeats come every third of it
	 */
	public record Jobs(String instanceId, @DefaultValue("60s") Duration leaseTtl) {

	}

}
