# refstore web application image, with the refstore command: build with the Maven wrapper, run on a JRE.
#   docker build -t refstore .        (or: docker-compose up --build, see docs/operators.md)
#   docker run --rm -v /srv/git:/var/lib/refstore/repos refstore refstore -C /var/lib/refstore/repos/x.git show-ref

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
# the wrapper and poms first, so that dependencies stay cached while only sources change
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
COPY refstore-core/pom.xml refstore-core/
COPY refstore-batch/pom.xml refstore-batch/
COPY refstore-web/pom.xml refstore-web/
COPY refstore-benchmark/pom.xml refstore-benchmark/
RUN ./mvnw -B -ntp -q -pl refstore-web -am dependency:go-offline
COPY . .
RUN ./mvnw -B -ntp -q -pl refstore-web -am -DskipTests package \
	&& cp refstore-web/target/refstore-web-*.jar /src/refstore-web.jar \
	&& mkdir /src/cli && tar -xzf refstore-core/target/refstore-*.tar.gz -C /src/cli --strip-components=1

FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 --home-dir /var/lib/refstore refstore \
	&& mkdir -p /var/lib/refstore/repos /var/lib/refstore/data /opt/refstore \
	&& chown -R refstore /var/lib/refstore \
	&& ln -s /opt/refstore/cli/bin/refstore /usr/local/bin/refstore
COPY --from=build /src/refstore-web.jar /opt/refstore/refstore-web.jar
# the command as the archive unpacks (bin/refstore, lib/); read-only to the user, it keeps its class-data
# archive in ~/.cache/refstore
COPY --from=build /src/cli/ /opt/refstore/cli/
COPY docker/refstore-web /opt/refstore/refstore-web
USER refstore
ENV REFSTORE_HOME=/var/lib/refstore
VOLUME ["/var/lib/refstore/repos", "/var/lib/refstore/data"]
EXPOSE 8080
ENTRYPOINT ["/opt/refstore/refstore-web"]
