# bash completion for litmusc: commands, their options, targets, models,
# and .litmus files.
_litmusc()
{
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    cmd=${COMP_WORDS[1]}
    local commands="gen parse ir model races models emit run check-scheme cc-check hunt campaign"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    case $prev in
    --arch|-arch) COMPREPLY=($(compgen -W "X86 C Java" -- "$cur")); return ;;
    --target)
        case $cmd in
        cc-check|hunt) COMPREPLY=($(compgen -W "x86_64 aarch64" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "x86-litmus jcstress java c11 x86" -- "$cur")) ;;
        esac
        return ;;
    --targets) COMPREPLY=($(compgen -W "x86 c11 java cc-check x86,c11 x86,c11,java" -- "$cur")); return ;;
    --model|--print|--source-model|--target-model)
        COMPREPLY=($(compgen -W "sc x86tso rc11 jam21 jls04" -- "$cur") $(compgen -f -X '!*.cat' -- "$cur")); return ;;
    --sync) COMPREPLY=($(compgen -W "timebase loose user" -- "$cur")); return ;;
    --detector) COMPREPLY=($(compgen -W "exact hb hybrid lockset all" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "dot svg" -- "$cur")); return ;;
    --graph) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --affinity) COMPREPLY=($(compgen -W "none incr random" -- "$cur")); return ;;
    --layout) COMPREPLY=($(compgen -W "array packed line shuffle" -- "$cur")); return ;;
    --mode|-mode) COMPREPLY=($(compgen -W "default critical sc" -- "$cur")); return ;;
    --scheme) COMPREPLY=($(compgen -W "c11-x86-xchg c11-x86-mfence java-x86-hotspot java-x86-leading x86-identity" -- "$cur")); return ;;
    --db|--html|--junit|--xml|-o|--cache-dir) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    local opts=""
    case $cmd in
    gen) opts="--arch -o --name --keep-order --size --relax --safe --nprocs --eprocs --max-ins --mode --mix --min-relax --max-relax --varatom --filter --list --vocabulary --help" ;;
    parse) opts="--hash --check --help" ;;
    ir) opts="--read --cond --observables --help" ;;
    model) opts="--model --json --notes --no-prune --unroll --cut-loops --max-candidates --timeout --model-timeout --graph --format --show --help" ;;
    races) opts="--model --detector --json --unroll --cut-loops --max-candidates --timeout --model-timeout --help" ;;
    models) opts="--print --help" ;;
    emit) opts="--target -o --model --scheme --package --plain --help" ;;
    run) opts="--target -s -r --sync --affinity --layout --chunk --period --delay --seed --cpus --time --timeout --until-covered --race-fuzz --max-iterations --model --max-candidates --model-timeout --scheme --plain --cc --cflags --cache-dir --filter --json --xml --help" ;;
    cc-check) opts="--target --cc --cflags --model --target-model --out --accesses --unroll --timeout --max-candidates --model-timeout --help" ;;
    hunt) opts="--target --cc --cflags --budget --max-tests --seed --order --mix --batch --shard --db --edges --confirm-time --max-bugs --unroll -o --help" ;;
    check-scheme) opts="--scheme --source-model --target-model --reparse -q --max-candidates --model-timeout --help" ;;
    campaign)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "run merge report diff parallel slurm --help" -- "$cur"))
            return
        fi
        opts="--db --targets --cc --cflags --shard --quiet --filter -s -r --sync --timeout --until-covered --max-iterations --model --html --junit --json --jobs --shards --sshlogin --partition -o --help" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -X '!*.litmus' -- "$cur") $(compgen -d -- "$cur"))
    fi
}
complete -o filenames -F _litmusc litmusc
