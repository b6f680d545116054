"""A file the peers cannot read (`.m4a`) as a float WAV of the samples the toolkit analyses: the
ffmpeg tool's decoding cut at the length the container presents (the stream's duration from its
edit list, as ffprobe reports it). The tool removes the AAC encoder's priming before the first
presented sample but keeps its padding after the last in a file ffmpeg encoded (a 3-s file at
44.1 kHz: 697 frames more than its edit list presents); the toolkit reads neither
(docs/formats.md §5.2), and frames placed from the sound's length would lie elsewhere."""
import json
import subprocess


def presented_frames(path):
    """The frames the container presents: the audio stream's duration in its time base, at its rate."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=duration_ts,time_base,sample_rate",
                            "-of", "json", path], capture_output=True, text=True, check=True)
    stream = json.loads(probe.stdout)["streams"][0]
    numerator, denominator = (int(part) for part in stream["time_base"].split("/"))
    return int(stream["duration_ts"]) * numerator * int(stream["sample_rate"]) // denominator


def wav(path, target):
    """`path` itself if a peer reads it, else `target`, written as the float WAV of its presented frames."""
    if not path.endswith(".m4a"):
        return path
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", path, "-af", f"atrim=end_sample={presented_frames(path)}", "-c:a", "pcm_f32le", target],
                   check=True)
    return target
